// CPU-heavy work off the request thread (issue 22: training an intent model; issue 24: cutting a
// document into passages). Either one, on the event loop, stalls every request of every bot for
// seconds, and a large enough input runs the process out of heap. So each kind of work gets one
// worker thread of its own: one job at a time, a bounded queue (one more is refused), a heap cap
// (resourceLimits) and a time bound. A job that goes over a cap ends the thread, never the server;
// the callers (understanding/trainer.ts, knowledge/indexer.ts) say what each refusal is called.
import { Worker } from 'node:worker_threads';

export interface WorkerQueueLimits {
  /** jobs that may wait while one runs; one more is refused */
  queue: number;
  /** the thread's heap (V8 old generation), in MB */
  memoryMb: number;
  /** how long one job may run */
  timeoutMs: number;
  /** an idle thread is ended after this long (default IDLE_MS); null: never (a thread that holds a loaded model) */
  idleMs?: number | null;
}

/** The caller's errors for each way a job is refused by the queue or a cap. */
export interface WorkerQueueRefusals {
  busy(queue: number): Error;
  overMemory(memoryMb: number): Error;
  overTime(seconds: number): Error;
}

export interface WorkerQueueOptions {
  /** what the thread does, in its own failures: "training" → "training failed: …" */
  work: string;
  /** the module the thread imports; from `moduleNextTo`, so that it is the same code as on the request thread */
  module: string;
  /** the module's export that the thread calls with a job's input (inputs and outputs are structured-cloned) */
  run: string;
  errors: WorkerQueueRefusals;
  /**
   * The module's exported error class for an input the job itself refuses, and the caller's error
   * for it: such a job fails alone and the thread is kept (it is sound). Without it, a job's own
   * error is a failure: "<work> failed: <stack>", on a fresh thread next time.
   */
  invalid?: { exportName: string; toError(message: string, detail?: unknown): Error };
}

/** A place in the queue held for a job not sent yet (the caller writes something first, then runs it). */
export interface QueueSlot<Input, Output> {
  run(input: Input): Promise<Output>;
  /** gives the place back unused (what the caller meant to write was refused) */
  release(): void;
}

/** An idle thread is ended after this long: it holds the last job's garbage and its libraries. */
const IDLE_MS = 15_000;

/**
 * The URL of `name` (like './model') next to `callerUrl` (the caller's import.meta.url): as
 * TypeScript under the tests (tsx) and as JavaScript in dist/ (bin/build.js keeps the layout).
 */
export function moduleNextTo(callerUrl: string, name: string): string {
  return new URL(`${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl).href;
}

// A worker does not inherit the tsx loader the tests run the sources with (Node 20), so a thread
// that must load TypeScript loads tsx itself (as test/support/off-thread.ts does). Resolved only
// then: dist/ runs without tsx installed.
const tsxApi = (module: string) => (module.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : null);

/** The thread's program: plain JavaScript, run with `eval`, so that it needs no loader itself. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const loading = workerData.tsx
  ? import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.module, workerData.module))
  : import(workerData.module);
parentPort.on('message', async ({ input }) => {
  try {
    const exports = await loading;
    try {
      parentPort.postMessage({ output: await exports[workerData.run](input) });
    } catch (error) {
      const Invalid = workerData.invalid && exports[workerData.invalid];
      if (Invalid && error instanceof Invalid) parentPort.postMessage({ invalid: error.message, detail: error.detail });
      else throw error;
    }
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.stack) || error) });
  }
});
`;

interface Job<Input, Output> {
  input: Input;
  resolve(output: Output): void;
  reject(error: unknown): void;
}

/** What ended a job: its output, an input it refused (the thread is sound), or anything else. */
type Outcome<Output> = { output: Output } | { invalid: Error } | { failed: unknown };

export class WorkerQueue<Input, Output> {
  private readonly waiting: Job<Input, Output>[] = [];
  private running = false;
  /** places held by reserve() and not yet run or released */
  private reserved = 0;
  private thread: { worker: Worker; memoryMb: number } | null = null;
  private idle: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly options: WorkerQueueOptions,
    /** may be replaced at any time (a server sets its caps when it starts): the next job uses them */
    public limits: WorkerQueueLimits,
  ) {}

  /** The job's output, computed on the thread; rejects with the caller's errors. */
  run(input: Input): Promise<Output> {
    if (this.full || this.closed) return Promise.reject(this.options.errors.busy(this.limits.queue));
    return this.enqueue(input);
  }

  /**
   * Holds a place in the queue now, or throws the caller's busy error: a caller that must write
   * before the job runs (a large knowledge source) is refused before writing anything, not after.
   */
  reserve(): QueueSlot<Input, Output> {
    if (this.full || this.closed) throw this.options.errors.busy(this.limits.queue);
    this.reserved++;
    let held = true;
    const giveBack = () => {
      if (held) this.reserved--;
      held = false;
    };
    return {
      run: (input) => {
        giveBack();
        return this.enqueue(input);
      },
      release: giveBack,
    };
  }

  /** One job running, the waiting ones and the held places: one more than `queue` is full. */
  private get full(): boolean {
    return (this.running ? 1 : 0) + this.waiting.length + this.reserved > this.limits.queue;
  }

  private enqueue(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.next();
    });
  }

  /** How many jobs wait, and whether one runs (tests, metrics). */
  get load(): { running: boolean; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private next(): void {
    const job = this.running ? undefined : this.waiting.shift();
    if (job === undefined) return;
    this.running = true;
    if (this.idle) clearTimeout(this.idle);
    this.runOn(this.threadFor(), job.input)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        const idleMs = this.limits.idleMs === undefined ? IDLE_MS : this.limits.idleMs;
        if (!this.closed && idleMs !== null) this.idle = setTimeout(() => this.stop(), idleMs).unref();
        this.next();
      });
  }

  private threadFor(): Worker {
    const { memoryMb } = this.limits;
    if (this.thread?.memoryMb === memoryMb) return this.thread.worker;
    // a heap cap is fixed when a thread starts: new caps need a new thread
    this.stop();
    const { module, run, invalid } = this.options;
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { module, run, invalid: invalid?.exportName, tsx: tsxApi(module) },
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

  /** Shutdown: waiting jobs are refused (busy), the running one fails with its thread, nothing more starts. */
  close(): void {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    for (const job of this.waiting.splice(0)) job.reject(this.options.errors.busy(this.limits.queue));
    this.stop();
  }

  private stop(): void {
    const thread = this.thread;
    this.thread = null;
    if (thread) void thread.worker.terminate();
  }

  private runOn(worker: Worker, input: Input): Promise<Output> {
    const { memoryMb, timeoutMs } = this.limits;
    const { work, errors, invalid } = this.options;
    return new Promise<Output>((resolve, reject) => {
      const settle = (outcome: Outcome<Output>) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if ('output' in outcome) return resolve(outcome.output);
        if ('invalid' in outcome) return reject(outcome.invalid);
        // A thread that failed may hold anything, and one past its time is still busy with the
        // job (its late answer would be taken for the next job's): the next job gets a fresh one.
        if (this.thread?.worker === worker) this.stop();
        reject(outcome.failed);
      };
      const onMessage = (message: { output?: Output; invalid?: string; detail?: unknown; error?: string }) => {
        if (message.error !== undefined) settle({ failed: new Error(`${work} failed: ${message.error}`) });
        // the thread posts `invalid` only when given an error class to recognise
        else if (message.invalid !== undefined) settle({ invalid: invalid!.toError(message.invalid, message.detail) });
        else settle({ output: message.output as Output });
      };
      const onError = (error: Error & { code?: string }) => settle({ failed: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? errors.overMemory(memoryMb) : error });
      const onExit = (code: number) => settle({ failed: new Error(`the ${work} thread exited (${code})`) });
      const timer = setTimeout(() => settle({ failed: errors.overTime(timeoutMs / 1000) }), timeoutMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ input });
    });
  }
}
