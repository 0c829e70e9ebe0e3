// Training off the request thread (issue 22). nlp.js trains synchronously: on the event loop a
// 437 KB bot file blocked every request for 22 s, and a 2.1 MB one ran the process out of heap. So
// the server trains on one worker thread of its own, under a heap cap (resourceLimits) and a time
// bound, one model at a time, with a bounded queue; a training that goes over a cap ends the
// thread, never the server, and its request gets 422 TRAINING_LIMIT. Save-time limits
// (languages.ts NLP_LIMITS) keep an allowed model well inside both caps; the caps are the backstop.
// The thread runs model.ts's own `train`, so the model is the same wherever it is trained.
import { Worker } from 'node:worker_threads';
import type { NlpSection } from '../bots/bot-file.js';
import { AppError } from '../shared/errors.js';
import { trainWith } from './model.js';
import { DEFAULT_TRAINING_LIMITS, type TrainingLimits } from './training-limits.js';

/** An idle thread is ended after this long: it holds the last model's garbage and nlp.js. */
const IDLE_MS = 15_000;

// Where the thread finds model.ts: next to this file, as TypeScript under the tests (tsx) and as
// JavaScript in dist/ (bin/build.js). A worker does not inherit the tsx loader the tests run the
// sources with (Node 20), so the thread loads it itself when it has to (as test/support/off-thread.ts).
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const MODEL_URL = new URL(FROM_SOURCES ? './model.ts' : './model.js', import.meta.url).href;
const TSX_API = FROM_SOURCES ? import.meta.resolve('tsx/esm/api') : null;

/** The thread's program: plain JavaScript, run with `eval`, so that it needs no loader itself. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const loading = workerData.tsx
  ? import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.model, workerData.model))
  : import(workerData.model);
parentPort.on('message', async ({ section }) => {
  try {
    const { train } = await loading;
    parentPort.postMessage({ model: await train(section) });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.stack) || error) });
  }
});
`;

interface Job {
  section: NlpSection;
  resolve(model: string): void;
  reject(error: unknown): void;
}

export class Trainer {
  private readonly waiting: Job[] = [];
  private running = false;
  private thread: { worker: Worker; memoryMb: number } | null = null;
  private idle: NodeJS.Timeout | null = null;

  constructor(public limits: TrainingLimits = DEFAULT_TRAINING_LIMITS) {}

  /** The exported model, trained on the thread; rejects with TRAINING_BUSY or TRAINING_LIMIT. */
  train(section: NlpSection): Promise<string> {
    if (this.running && this.waiting.length >= this.limits.queue) {
      return Promise.reject(new AppError('TRAINING_BUSY', undefined, { Limit: 'TrainingQueue', Max: this.limits.queue }));
    }
    return new Promise<string>((resolve, reject) => {
      this.waiting.push({ section, resolve, reject });
      this.next();
    });
  }

  /** How many trainings wait, and whether one runs (tests, metrics). */
  get load(): { running: boolean; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private next(): void {
    const job = this.running ? undefined : this.waiting.shift();
    if (job === undefined) return;
    this.running = true;
    if (this.idle) clearTimeout(this.idle);
    this.runOn(this.threadFor(), job.section)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        this.idle = setTimeout(() => this.stop(), IDLE_MS).unref();
        this.next();
      });
  }

  private threadFor(): Worker {
    const { memoryMb } = this.limits;
    if (this.thread?.memoryMb === memoryMb) return this.thread.worker;
    this.stop();
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { model: MODEL_URL, tsx: TSX_API },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    // a process that is done must be able to exit with an idle thread left
    worker.unref();
    this.thread = { worker, memoryMb };
    worker.once('exit', () => {
      if (this.thread?.worker === worker) this.thread = null;
    });
    return worker;
  }

  private stop(): void {
    const thread = this.thread;
    this.thread = null;
    if (thread) void thread.worker.terminate();
  }

  private runOn(worker: Worker, section: NlpSection): Promise<string> {
    const { memoryMb, timeoutMs } = this.limits;
    return new Promise<string>((resolve, reject) => {
      const settle = (error: unknown, model?: string) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (error === null) resolve(model!);
        else {
          // a thread that failed may hold anything: the next training gets a fresh one
          if (this.thread?.worker === worker) this.stop();
          reject(error);
        }
      };
      const onMessage = (message: { model?: string; error?: string }) =>
        message.error === undefined ? settle(null, message.model) : settle(new Error(`training failed: ${message.error}`));
      const onError = (error: Error & { code?: string }) =>
        settle(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? overLimit('TrainingMemoryMB', memoryMb, `needed more than ${memoryMb} MB of memory`) : error);
      const onExit = (code: number) => settle(new Error(`the training thread exited (${code})`));
      const timer = setTimeout(() => settle(overLimit('TrainingSeconds', timeoutMs / 1000, `took longer than ${timeoutMs / 1000} s`)), timeoutMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ section });
    });
  }
}

function overLimit(limit: string, max: number, what: string): AppError {
  return new AppError('TRAINING_LIMIT', `Training the intent model ${what}: use fewer intents, or fewer or shorter examples.`, { Limit: limit, Max: max });
}

const trainer = new Trainer();

/** From now on, this process trains on the thread, within `limits` (main.ts, once per server). */
export function trainOffThread(limits: TrainingLimits = DEFAULT_TRAINING_LIMITS): Trainer {
  trainer.limits = limits;
  trainWith((section) => trainer.train(section));
  return trainer;
}
