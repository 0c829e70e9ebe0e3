// What `colloquy dev` watches: the bot file and the test files next to it. The folder is watched,
// not the file, because editors save by writing a new file and renaming it over the old one. A
// save is acted on once its content changed (editors and fs.watch report a save several times).
import fs from 'node:fs';
import path from 'node:path';
import { runTestFiles } from '../bot-testing/run.js';
import { TextReporter } from '../bot-testing/report-text.js';
import { isTestFileName, readTestFile } from '../bot-testing/test-file.js';

interface WatchHandlers {
  /** a new content of the bot file; resolves true when it was published */
  onSave(text: string): Promise<boolean>;
  say(line: string): void;
}

/** The settle time after the last change event before the file is read. */
const SETTLE_MS = 30;

/** Test files in the bot's folder (and below) whose `bot` is this file. */
function testsOf(botFile: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 3 && entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full, depth + 1);
      else if (entry.isFile() && isTestFileName(entry.name)) {
        const read = readTestFile(full);
        if (!('problems' in read) && read.botPath === botFile) found.push(full);
        else if ('problems' in read) found.push(full); // reported by the run: a broken test file is worth saying
      }
    }
  };
  walk(path.dirname(botFile), 0);
  return found;
}

export function watchBotFile(botFile: string, handlers: WatchHandlers): { close(): void } {
  let last: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const runTests = async () => {
    const files = testsOf(botFile);
    if (files.length === 0) {
      handlers.say(`  (no *.test.yaml next to ${path.basename(botFile)} names it: nothing to re-run)`);
      return;
    }
    const reporter = new TextReporter((line) => handlers.say(`  ${line}`));
    const result = await runTestFiles(files, { onFile: (f) => reporter.file(f), onTest: (t) => reporter.test(t) });
    reporter.summary(result);
  };

  const check = async (testsChanged: boolean) => {
    let text: string;
    try {
      text = fs.readFileSync(botFile, 'utf8');
    } catch {
      return; // between an editor's delete and rename: the next event brings the file
    }
    if (text === last && !testsChanged) return;
    const changed = text !== last;
    last = text;
    const published = changed ? await handlers.onSave(text) : true;
    if (published) await runTests();
  };

  const schedule = (testsChanged: boolean) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(() => check(testsChanged)).catch((error: Error) => handlers.say(`colloquy dev: ${error.message}`));
    }, SETTLE_MS);
  };

  const watcher = fs.watch(path.dirname(botFile), (_event, name) => {
    if (name === path.basename(botFile)) schedule(false);
    else if (name && isTestFileName(name)) schedule(true);
  });
  schedule(false); // the first publish
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
