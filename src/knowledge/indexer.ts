// Documents are parsed and cut on a thread of their own (knowledge.md; the brief of issue 24:
// indexing never blocks other requests). Converting 10 MiB of HTML takes seconds of CPU: on the
// event loop every chat of every bot would wait for it. One thread, one document at a time, a
// bounded queue (503 KNOWLEDGE_BUSY past it), a heap cap and a time bound: a document that goes
// over a cap ends the thread, never the server, and its source is refused or marked failed.
// The thread runs passages.ts's own `passagesOf`, so passages are the same wherever they are cut.
import { Worker } from 'node:worker_threads';
import { AppError } from '../shared/errors.js';
import { DocumentError, type DocumentInput, type Passage } from './passages.js';

export interface IndexerLimits {
  /** documents waiting while one is cut */
  queue: number;
  memoryMb: number;
  timeoutMs: number;
}

export const DEFAULT_INDEXER_LIMITS: IndexerLimits = Object.freeze({ queue: 8, memoryMb: 512, timeoutMs: 60_000 });
/** An idle thread is ended after this long. */
const IDLE_MS = 15_000;

// Where the thread finds passages.ts: as TypeScript under the tests (tsx), as JavaScript in dist/
// (see understanding/trainer.ts, which loads its model the same way).
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const PASSAGES_URL = new URL(FROM_SOURCES ? './passages.ts' : './passages.js', import.meta.url).href;
const TSX_API = FROM_SOURCES ? import.meta.resolve('tsx/esm/api') : null;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const loading = workerData.tsx
  ? import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.module, workerData.module))
  : import(workerData.module);
parentPort.on('message', async ({ input }) => {
  try {
    const { passagesOf, DocumentError } = await loading;
    try {
      parentPort.postMessage({ passages: passagesOf(input) });
    } catch (error) {
      if (error instanceof DocumentError) parentPort.postMessage({ invalid: error.message });
      else throw error;
    }
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.stack) || error) });
  }
});
`;

interface Job {
  input: DocumentInput;
  resolve(passages: Passage[]): void;
  reject(error: unknown): void;
}

export class Indexer {
  private readonly waiting: Job[] = [];
  private running = false;
  private worker: Worker | null = null;
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly limits: IndexerLimits = DEFAULT_INDEXER_LIMITS) {}

  /** The document's passages; rejects with DocumentError (nothing to index), KNOWLEDGE_BUSY or a cap. */
  passagesOf(input: DocumentInput): Promise<Passage[]> {
    if (this.running && this.waiting.length >= this.limits.queue) {
      return Promise.reject(new AppError('KNOWLEDGE_BUSY', undefined, { Limit: 'IndexingQueue', Max: this.limits.queue }));
    }
    return new Promise<Passage[]>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    const job = this.running ? undefined : this.waiting.shift();
    if (job === undefined) return;
    this.running = true;
    if (this.idle) clearTimeout(this.idle);
    this.runOn(this.thread(), job.input)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        this.idle = setTimeout(() => this.stop(), IDLE_MS).unref();
        this.next();
      });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { module: PASSAGES_URL, tsx: TSX_API },
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
    });
    worker.unref();
    this.worker = worker;
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    return worker;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
  }

  private runOn(worker: Worker, input: DocumentInput): Promise<Passage[]> {
    const { timeoutMs, memoryMb } = this.limits;
    return new Promise<Passage[]>((resolve, reject) => {
      const settle = (error: unknown, passages?: Passage[]) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (error === null) return resolve(passages!);
        // a thread that failed may hold anything: the next document gets a fresh one
        if (this.worker === worker && !(error instanceof DocumentError)) this.stop();
        reject(error);
      };
      const onMessage = (message: { passages?: Passage[]; invalid?: string; error?: string }) => {
        if (message.passages !== undefined) settle(null, message.passages);
        else if (message.invalid !== undefined) settle(new DocumentError(message.invalid));
        else settle(new Error(`indexing failed: ${message.error}`));
      };
      const onError = (error: Error & { code?: string }) =>
        settle(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new DocumentError(`reading the document needed more than ${memoryMb} MB of memory`) : error);
      const onExit = (code: number) => settle(new Error(`the indexing thread exited (${code})`));
      const timer = setTimeout(() => settle(new DocumentError(`reading the document took longer than ${timeoutMs / 1000} s`)), timeoutMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ input });
    });
  }
}
