// The threads that run vector scans (vector-scan.ts) off the request thread: a few worker
// threads, each with a bounded queue (shared/worker-queue.ts), a job going to the least loaded
// one. Past the queues a search is refused with 503 KNOWLEDGE_BUSY (Limit "SearchQueue"): with
// every thread that far behind, a question would wait longer than it is worth answering.
// A scan small enough to cost less than handing it over (a bot with a few hundred passages) is
// done on the calling thread.
import os from 'node:os';
import { AppError } from '../shared/errors.js';
import { moduleNextTo, WorkerQueue, type WorkerQueueRefusals } from '../shared/worker-queue.js';
import { scan, type Neighbour, type ScanJob } from './vector-scan.js';

export interface VectorPoolLimits {
  /** scan threads */
  threads: number;
  /** scans that may wait for a thread, all threads together; one more is refused */
  queue: number;
  /** a scan of at most this many numbers (rows × dimensions) runs on the calling thread */
  inThreadCells: number;
}

/**
 * One thread fewer than the cores (the request thread has one), at least one, at most four;
 * 64 waiting scans (at 30 ms each, two seconds of work); in-thread up to 1,024 rows of 256
 * numbers (~0.3 ms, about what a round trip to a thread costs).
 */
export const DEFAULT_VECTOR_POOL_LIMITS: VectorPoolLimits = Object.freeze({
  threads: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  queue: 64,
  inThreadCells: 1024 * 256,
});

/** A scan is memory the threads share, not their own: a small heap is plenty. */
const THREAD_MEMORY_MB = 64;
/** No scan takes this long (90,000 × 1,536 numbers is under half a second): a thread past it is stuck. */
const SCAN_TIMEOUT_MS = 10_000;

export class VectorPool {
  private readonly queues: WorkerQueue<ScanJob, Neighbour[]>[];

  constructor(private readonly limits: VectorPoolLimits = DEFAULT_VECTOR_POOL_LIMITS) {
    const module = moduleNextTo(import.meta.url, './vector-scan');
    const perThread = Math.max(0, Math.ceil(limits.queue / limits.threads));
    const errors: WorkerQueueRefusals = {
      busy: () => new AppError('KNOWLEDGE_BUSY', 'Too many searches are waiting for the vector scan; try again in a few seconds.', { Limit: 'SearchQueue', Max: limits.queue }),
      overMemory: (memoryMb) => new Error(`a vector scan needed more than ${memoryMb} MB of heap`),
      overTime: (seconds) => new Error(`a vector scan took longer than ${seconds} s`),
    };
    this.queues = Array.from(
      { length: Math.max(1, limits.threads) },
      () => new WorkerQueue<ScanJob, Neighbour[]>({ work: 'vector scan', module, run: 'scan', errors }, { queue: perThread, memoryMb: THREAD_MEMORY_MB, timeoutMs: SCAN_TIMEOUT_MS }),
    );
  }

  /** The k best rows of the job, best first; rejects with KNOWLEDGE_BUSY when every queue is full. */
  async scan(job: ScanJob): Promise<Neighbour[]> {
    if (job.values.length <= this.limits.inThreadCells) return scan(job);
    const load = (q: WorkerQueue<ScanJob, Neighbour[]>) => (q.load.running ? 1 : 0) + q.load.waiting;
    const least = this.queues.reduce((a, b) => (load(b) < load(a) ? b : a));
    return least.run(job);
  }

  /** Scans running and waiting, all threads together (tests, metrics). */
  get load(): { running: number; waiting: number } {
    return this.queues.reduce((sum, q) => ({ running: sum.running + (q.load.running ? 1 : 0), waiting: sum.waiting + q.load.waiting }), { running: 0, waiting: 0 });
  }
}
