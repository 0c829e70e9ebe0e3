// Large bot files are parsed and validated on a thread of their own (issue 35): a 2 MB YAML list
// took seconds of CPU, and on the event loop every request of every tenant waited for it
// (`/health` too). Small files, which are nearly all of them, stay on the request thread: a
// thread's round trip would cost them more than the parse. shared/worker-queue.ts runs the
// thread: one file at a time, a small queue (503 BOT_FILE_BUSY past it), a heap cap and a time
// bound; a file that goes over a cap ends the thread, never the server, and is refused.
import { AppError } from '../shared/errors.js';
import { moduleNextTo, WorkerQueue, type WorkerQueueLimits, type WorkerQueueRefusals } from '../shared/worker-queue.js';
import type { BotFile } from '../engine/bot-file.js';
import { UnparsedJson } from './parse.js';
import type { Problem } from './problems.js';
import { isObj } from './walk.js';
import { botOf, readBotFile, type BotFileOutcome, type BotFileText } from './read.js';

/** Texts longer than this (UTF-16 code units, about bytes) are read on the thread. */
export const OFF_THREAD_CHARS = 64 * 1024;

export const DEFAULT_READER_LIMITS: WorkerQueueLimits = Object.freeze({ queue: 4, memoryMb: 512, timeoutMs: 20_000 });

const refusals: WorkerQueueRefusals = {
  busy: (queue) => new AppError('BOT_FILE_BUSY', undefined, { Limit: 'BotFileQueue', Max: queue }),
  overMemory: (memoryMb) => new AppError('INVALID_BOT', `Reading the bot file needed more than ${memoryMb} MB of memory.`, { Limit: 'BotFileMemory', Max: memoryMb }),
  overTime: (seconds) => new AppError('INVALID_BOT', `Reading the bot file took longer than ${seconds} s.`, { Limit: 'BotFileTime', Max: seconds }),
};

export class BotFileReader {
  private readonly queue: WorkerQueue<BotFileText, BotFileOutcome>;

  constructor(limits: WorkerQueueLimits = DEFAULT_READER_LIMITS) {
    this.queue = new WorkerQueue({ work: 'reading a bot file', module: moduleNextTo(import.meta.url, './read'), run: 'readBotText', errors: refusals }, limits);
  }

  /** The validated file; throws INVALID_BOT, INVALID_JSON, INVALID_REQUEST or BOT_FILE_BUSY. */
  async read(raw: unknown, contentType?: string): Promise<BotFile> {
    return botOf(await this.outcome(raw, contentType));
  }

  /**
   * A draft as the console saves it: the valid file, or an object with problems of content only.
   * What is not a draft at all (unparsable, over a bound, not an object) throws as `read` does.
   */
  async readDraft(raw: unknown, contentType?: string): Promise<ReadDraft> {
    const outcome = await this.outcome(raw, contentType);
    if (outcome.ok) return { ok: true, bot: outcome.bot };
    const { document, refusal } = outcome;
    if (!isObj(document) || !Array.isArray(refusal.extra.Problems)) return botOf(outcome) as never;
    return { ok: false, document, problems: refusal.extra.Problems as Problem[] };
  }

  private async outcome(raw: unknown, contentType?: string): Promise<BotFileOutcome> {
    const input = textOf(raw, contentType);
    if (input === null || input.text.length <= OFF_THREAD_CHARS) return readBotFile(raw, contentType);
    return this.queue.run(input);
  }
}

export type ReadDraft = { ok: true; bot: BotFile } | { ok: false; document: Record<string, unknown>; problems: Problem[] };

function textOf(raw: unknown, contentType?: string): BotFileText | null {
  if (raw instanceof UnparsedJson) return { text: raw.text, contentType, jsonBody: true };
  if (typeof raw === 'string') return { text: raw, contentType, jsonBody: false };
  if (raw instanceof Uint8Array) return { text: new TextDecoder('utf-8', { fatal: false }).decode(raw), contentType, jsonBody: false };
  return null;
}
