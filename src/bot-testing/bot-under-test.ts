// The bot a test file names, made ready exactly as a publish makes it: parsed (JSON or YAML),
// validated with the server's rules, ids assigned, compiled by the engine's compiler, and its
// intent model trained by the same trainer (in this process: no server, no database).
import fs from 'node:fs';
import { readBotFile } from '../bots/read.js';
import type { Problem } from '../bots/problems.js';
import { assignIds } from '../bots/ids.js';
import type { BotFile } from '../engine/bot-file.js';
import { compileBot, type CompiledBot } from '../engine/compile.js';
import type { ClassifyAnswer } from '../engine/types.js';
import type { FileProblem } from './test-file.js';

export interface BotUnderTest {
  path: string;
  name: string;
  compiled: CompiledBot;
  classify: (text: string) => Promise<ClassifyAnswer>;
}

/** Bot files bigger than what the server accepts are refused before they are parsed. */
const MAX_BOT_FILE_BYTES = 16 * 1024 * 1024;
const NO_INTENTS = async (): Promise<ClassifyAnswer> => ({ intents: [] });

export function isProblem<T>(value: T | FileProblem): value is FileProblem {
  return typeof value === 'object' && value !== null && 'problems' in value;
}

/** The bot file's text checked as the server checks an upload: its problems, or the file. */
export function checkBotText(file: string, text: string): BotFile | FileProblem {
  const read = readBotFile(text, /\.ya?ml$/i.test(file) ? 'application/yaml' : undefined);
  if (!read.ok) {
    const problems = (read.refusal.extra.Problems as Problem[] | undefined) ?? [{ Path: '$', Message: read.refusal.message ?? read.refusal.code }];
    return { path: file, problems: problems.map((p) => ({ at: p.Path, message: p.Message })) } satisfies FileProblem;
  }
  return assignIds(read.bot);
}

export async function loadBot(file: string): Promise<BotUnderTest | FileProblem> {
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_BOT_FILE_BYTES) return { path: file, problems: [{ at: '$', message: `larger than ${MAX_BOT_FILE_BYTES} bytes` }] };
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { path: file, problems: [{ at: '$', message: `cannot be read: ${(error as Error).message}` }] };
  }
  const checked = checkBotText(file, text);
  if (isProblem(checked)) return checked;
  const compiled = compileBot(checked);
  let classify: BotUnderTest['classify'] = NO_INTENTS;
  if (compiled.nlp !== null && compiled.nlp.intents.length > 0) {
    // loaded only for a bot with intents: the language models are most of a cold start
    const { loadClassifier, trainModel } = await import('../understanding/model.js');
    const model = await trainModel(checked.nlp);
    if (model !== null) {
      const classifier = await loadClassifier(model, compiled.nlp.language);
      classify = (text) => classifier.classify(text);
    }
  }
  return { path: file, name: checked.name, compiled, classify };
}

/** Each bot file once per run, however many test files name it. */
export class BotCache {
  private readonly loaded = new Map<string, Promise<BotUnderTest | FileProblem>>();
  get(file: string): Promise<BotUnderTest | FileProblem> {
    let found = this.loaded.get(file);
    if (!found) this.loaded.set(file, (found = loadBot(file)));
    return found;
  }
}
