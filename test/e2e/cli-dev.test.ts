// `colloquy dev <bot file>` as a user runs it: a local server on a temporary database, the links
// printed, the bot's tests run; a save is published and the tests run again; an invalid save
// prints its problems and the last good version keeps answering; Ctrl+C removes the database.
// No timing is asserted: each step waits for the event it expects (generous timeouts).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { folderWith, spawnColloquy } from '../support/bot-test-kit.js';
import { STEPS_BOT } from '../fixtures/bot-test-files.js';

/** Everything a process printed, and a wait for a pattern in what it prints after a mark. */
class Output {
  text = '';
  private waiters: Array<() => void> = [];
  constructor(child: ChildProcess) {
    const take = (chunk: Buffer) => {
      this.text += chunk.toString();
      for (const wake of this.waiters) wake();
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
  }
  mark(): number {
    return this.text.length;
  }
  waitFor(pattern: RegExp, from = 0, timeoutMs = 60_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(this.text.slice(from));
        if (!found) return;
        this.waiters = this.waiters.filter((w) => w !== check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${timeoutMs} ms; printed:\n${this.text}`)), timeoutMs);
      this.waiters.push(check);
      check();
    });
  }
}

const BOT = STEPS_BOT.replace('settings: { enableTypeSpeed: false }', 'settings: { enableTypeSpeed: false, channels: { web: { enabled: true, allowedOrigins: ["*"] } } }');
const TESTS = 'bot: steps.bot.yaml\ntests:\n  - name: hello\n    steps: [{ bot: Hello from Paris! }]\n';

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

test('colloquy dev: serves the bot, republishes each valid save, runs its tests again, keeps the last good version on an invalid save', async () => {
  const dir = folderWith({ 'steps.bot.yaml': BOT, 'steps.test.yaml': TESTS });
  dirs.push(dir);
  const child = spawnColloquy(['dev', 'steps.bot.yaml'], { cwd: dir });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const out = new Output(child);
  try {
    const [, dataDir] = await out.waitFor(/a temporary database in (\S+)\n/);
    const [, base] = await out.waitFor(/serving "Steps Bot" on (http:\/\/127\.0\.0\.1:\d+)\n/);
    await out.waitFor(/steps\.bot\.yaml saved: version 1 is live\n/);
    await out.waitFor(/ {2}✓ hello .*\n[\s\S]*1 tests, 1 passed, 0 failed/);
    assert.match(out.text, new RegExp(`console {6}${base}/console {3}\\(sign in as dev@colloquy\\.local / \\S+\\)`));
    const [, webKey] = await out.waitFor(/widget demo {2}\S+\/demo\?bot=(\S+)\n/);
    const [, token] = await out.waitFor(/bot token {4}(\S+)\n/);
    const chat = async (user: string) => {
      const response = await fetch(`${base}/custom/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ UserId: user }),
      });
      assert.equal(response.status, 200);
      return ((await response.json()) as { Parts: Array<{ Text: string }> }).Parts[0]!.Text;
    };
    assert.equal(await chat('a'), 'Hello from Paris!');
    const demo = await fetch(`${base}/demo?bot=${webKey}`);
    assert.equal(demo.status, 200);

    // a valid save: published as a new version (replace the draft, publish), then the tests again
    let mark = out.mark();
    fs.writeFileSync(path.join(dir, 'steps.bot.yaml'), BOT.replace('Hello from {{city}}!', 'Hi from {{city}}!'));
    await out.waitFor(/steps\.bot\.yaml saved: version 3 is live\n/, mark);
    await out.waitFor(/ {2}✗ hello\n[\s\S]*got: {6}"Hi from Paris!"[\s\S]*1 tests, 0 passed, 1 failed/, mark);
    assert.equal(await chat('b'), 'Hi from Paris!');

    // an invalid save: its problems with their paths, and version 3 keeps answering
    mark = out.mark();
    fs.writeFileSync(path.join(dir, 'steps.bot.yaml'), BOT.replace('name: Steps Bot', 'name: ""'));
    await out.waitFor(/steps\.bot\.yaml has 1 problem\(s\); version 3 stays live:\n {2}\$\.name: .+\n/, mark);
    assert.equal(await chat('c'), 'Hi from Paris!');

    // a test file saved: the tests run again against the live file
    mark = out.mark();
    fs.writeFileSync(path.join(dir, 'steps.bot.yaml'), BOT.replace('Hello from {{city}}!', 'Hi from {{city}}!'));
    await out.waitFor(/saved: version 5 is live\n/, mark);
    mark = out.mark();
    fs.writeFileSync(path.join(dir, 'steps.test.yaml'), TESTS.replace('Hello from Paris!', 'Hi from Paris!'));
    await out.waitFor(/ {2}✓ hello .*\n[\s\S]*1 tests, 1 passed, 0 failed/, mark);
    assert.doesNotMatch(out.text.slice(mark), /saved: version/, 'a test file save publishes nothing');

    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal(fs.existsSync(dataDir!), false, 'the temporary database is removed');
  } finally {
    child.kill('SIGKILL');
  }
});
