// The built-in model on the server's side (knowledge.md "The built-in model"; docs/limits.md):
// a few worker threads that run the sentence encoder (encoder.ts), each a WorkerQueue with a
// bounded queue, a job going to the least loaded one. Texts are cut to MAX_TEXT_CHARS, recent
// short requests are answered from an LRU of vectors (vector-cache.ts), and every caller has its
// own deadline: past it the caller gets TIMEOUT (the job goes on and its vectors still fill the
// cache). A full queue is ERROR at once, a crashed or hung thread ends its job with ERROR and the
// next job gets a fresh thread. Never throws, never rejects: like embeddings-client.ts, a failure
// is a status, and the callers fall back to words alone.
import { EMBED_BATCH, type EmbedOptions, type EmbedResult } from '../../integrations/embeddings-client.js';
import { moduleNextTo, WorkerQueue, type WorkerQueueRefusals } from '../../shared/worker-queue.js';
import type { EncodeJob } from './encoder.js';
import { VectorCache } from './vector-cache.js';

export interface BuiltinModelLimits {
  /** encoder threads (COLLOQUY_BUILTIN_MODEL_THREADS, 1..8) */
  threads: number;
  /** jobs that may wait for a thread, all threads together; one more is refused */
  queue: number;
  /** a job running longer than this means a hung thread: it is ended and replaced */
  jobTimeoutMs: number;
  /** the same for a thread's first job, which loads the model first */
  loadTimeoutMs: number;
  /** texts whose vectors are kept (LRU) */
  cacheEntries: number;
  /** COLLOQUY_BUILTIN_MODEL_TEST_HOOKS=1: encoder.ts's CRASH_TEXT / HANG_TEXT work (tests only) */
  testHooks: boolean;
}

/**
 * One thread; 32 waiting jobs (a question is ~40 ms of CPU, so about a second of work: a turn
 * waits at most 1.5 s for its vector anyway); 20 s for one job (a batch of 64 long passages is
 * ~1 s of CPU) and 60 s for a thread's first (loading the model: ~1 s idle, 6 s on a machine
 * loaded three times over); 2,000 texts cached (4 MB of vectors).
 */
export const DEFAULT_BUILTIN_MODEL_LIMITS: BuiltinModelLimits = Object.freeze({ threads: 1, queue: 32, jobTimeoutMs: 20_000, loadTimeoutMs: 60_000, cacheEntries: 2_000, testHooks: false });

/** A text is cut to this many characters before it is encoded (the encoder reads words, not pages: a passage's first 2,000 characters say what it is about). */
export const MAX_TEXT_CHARS = 2_000;
/** Requests of at most this many texts (turn-time questions and utterances) are cached; indexing batches are stored in the database instead. */
const CACHED_REQUEST_TEXTS = 8;
/** Weights (~28 MB) and TensorFlow.js's graph in the thread's heap, with room for a batch. */
const THREAD_MEMORY_MB = 512;

/** A refusal of a full queue (the thread is sound). */
class QueueFull extends Error {}

export class BuiltinModel {
  private readonly queues: WorkerQueue<EncodeJob, Float32Array[]>[];
  private readonly cache: VectorCache;

  constructor(private readonly limits: BuiltinModelLimits = DEFAULT_BUILTIN_MODEL_LIMITS) {
    const module = moduleNextTo(import.meta.url, './encoder');
    const errors: WorkerQueueRefusals = {
      busy: () => new QueueFull('the built-in model queue is full'),
      overMemory: (memoryMb) => new Error(`the built-in model needed more than ${memoryMb} MB of heap`),
      overTime: (seconds) => new Error(`the built-in model took longer than ${seconds} s`),
    };
    const threads = Math.max(1, limits.threads);
    const perThread = Math.max(0, Math.ceil(limits.queue / threads));
    this.queues = Array.from(
      { length: threads },
      () =>
        new WorkerQueue<EncodeJob, Float32Array[]>(
          { work: 'built-in model', module, run: 'encode', errors },
          { queue: perThread, memoryMb: THREAD_MEMORY_MB, timeoutMs: limits.loadTimeoutMs, idleMs: null },
        ),
    );
    this.cache = new VectorCache(limits.cacheEntries);
  }

  /** One unit vector per text, in order (EMBED_BATCH texts per job); tokens are always 0: the model costs the account nothing. */
  async embed(texts: readonly string[], options: Pick<EmbedOptions, 'timeoutMs'>): Promise<EmbedResult> {
    const cut = texts.map((text) => text.slice(0, MAX_TEXT_CHARS));
    const cacheable = cut.length <= CACHED_REQUEST_TEXTS;
    const vectors: Array<Float32Array | undefined> = cacheable ? cut.map((text) => this.cache.get(text)) : new Array(cut.length);
    const missing = cut.map((_, i) => i).filter((i) => vectors[i] === undefined);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'TIMEOUT'>((resolve) => (timer = setTimeout(() => resolve('TIMEOUT'), options.timeoutMs)));
    try {
      for (let start = 0; start < missing.length; start += EMBED_BATCH) {
        const batch = missing.slice(start, start + EMBED_BATCH);
        const job = this.run(batch.map((i) => cut[i])).then((found) => {
          if (cacheable) found.forEach((vector, k) => this.cache.set(cut[batch[k]], vector));
          return found;
        });
        // the job is not abandoned past the deadline, only no longer waited for
        job.catch(() => undefined);
        const found = await Promise.race([job, deadline]).catch(() => 'ERROR' as const);
        if (found === 'TIMEOUT' || found === 'ERROR' || found.length !== batch.length) return { status: found === 'TIMEOUT' ? 'TIMEOUT' : 'ERROR', vectors: [], tokens: 0 };
        found.forEach((vector, k) => (vectors[batch[k]] = vector));
      }
      return { status: 'OK', vectors: vectors as Float32Array[], tokens: 0 };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Shutdown: the threads end, waiting and running jobs end with ERROR. */
  stop(): void {
    for (const queue of this.queues) queue.close();
  }

  /** Jobs running and waiting, all threads together (tests, bench). */
  get load(): { running: number; waiting: number } {
    return this.queues.reduce((sum, q) => ({ running: sum.running + (q.load.running ? 1 : 0), waiting: sum.waiting + q.load.waiting }), { running: 0, waiting: 0 });
  }

  /** Unit vectors of the texts from the least loaded thread (rejects: busy, crashed, hung). */
  private async run(texts: string[]): Promise<Float32Array[]> {
    const load = (q: WorkerQueue<EncodeJob, Float32Array[]>) => (q.load.running ? 1 : 0) + q.load.waiting;
    const least = this.queues.reduce((a, b) => (load(b) < load(a) ? b : a));
    // a thread keeps its loaded model for good (idleMs null): only its first job loads it, and
    // only a thread that failed (crashed, hung, over memory) is replaced, so loads the model again
    try {
      const found = await least.run({ texts, testHooks: this.limits.testHooks });
      least.limits = { ...least.limits, timeoutMs: this.limits.jobTimeoutMs };
      return found.map(unit);
    } catch (error) {
      if (!(error instanceof QueueFull)) least.limits = { ...least.limits, timeoutMs: this.limits.loadTimeoutMs };
      throw error;
    }
  }
}

/** Scaled to length 1 (the encoder's are close to it already), so a dot product is the cosine. */
function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (!(norm > 0) || !Number.isFinite(norm)) throw new Error('the built-in model gave an empty vector');
  const scale = 1 / Math.sqrt(norm);
  return vector.map((x) => x * scale);
}
