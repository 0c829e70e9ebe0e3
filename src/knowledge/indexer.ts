// Documents are parsed and cut on a thread of their own (knowledge.md; the brief of issue 24:
// indexing never blocks other requests). Converting 10 MiB of HTML takes seconds of CPU: on the
// event loop every chat of every bot would wait for it. shared/worker-queue.ts runs it: one
// document at a time, a bounded queue (503 KNOWLEDGE_BUSY past it), a heap cap and a time bound;
// a document that goes over a cap ends the thread, never the server, and its source is refused or
// marked failed (a DocumentError, like a document with nothing to index).
// The thread runs reading.ts's `readPassages` (passages.ts for text, unpdf and mammoth for files),
// so passages are the same wherever they are cut.
import { AppError } from '../shared/errors.js';
import { moduleNextTo, WorkerQueue, type WorkerQueueLimits, type WorkerQueueRefusals } from '../shared/worker-queue.js';
import { DocumentTooLarge, tooLargeDetail } from './document-limits.js';
import type { Passage } from './passages.js';
import { DocumentError, type ReadableInput } from './reading.js';

export type IndexerLimits = WorkerQueueLimits;

export const DEFAULT_INDEXER_LIMITS: IndexerLimits = Object.freeze({ queue: 8, memoryMb: 512, timeoutMs: 60_000 });

/** A full queue is a 503 (try again soon); a document over a cap cannot be indexed, like one with no text. */
const refusals: WorkerQueueRefusals = {
  busy: (queue) => new AppError('KNOWLEDGE_BUSY', undefined, { Limit: 'IndexingQueue', Max: queue }),
  overMemory: (memoryMb) => new DocumentError(`reading the document needed more than ${memoryMb} MB of memory`),
  overTime: (seconds) => new DocumentError(`reading the document took longer than ${seconds} s`),
};

export class Indexer {
  private readonly queue: WorkerQueue<ReadableInput, Passage[]>;

  constructor(limits: IndexerLimits = DEFAULT_INDEXER_LIMITS) {
    const module = moduleNextTo(import.meta.url, './reading');
    // a document with nothing to index is the document's fault, not the thread's: the thread is kept
    // (a document over one of document-limits.ts's caps is one too, and keeps which cap it passed)
    const invalid = { exportName: 'DocumentError', toError: documentErrorOf };
    this.queue = new WorkerQueue({ work: 'indexing', module, run: 'readPassages', errors: refusals, invalid }, limits);
  }

  /** The document's passages; rejects with DocumentError (nothing to index), KNOWLEDGE_BUSY or a cap. */
  passagesOf(input: ReadableInput): Promise<Passage[]> {
    return this.queue.run(input);
  }

  /** A place in the queue held before a large source is written (503 KNOWLEDGE_BUSY now, not `failed` later). */
  reserve(): { passagesOf(input: ReadableInput): Promise<Passage[]>; release(): void } {
    const slot = this.queue.reserve();
    return { passagesOf: (input) => slot.run(input), release: () => slot.release() };
  }
}

function documentErrorOf(message: string, detail?: unknown): DocumentError {
  const over = tooLargeDetail(detail);
  if (over === null) return new DocumentError(message);
  const error = new DocumentTooLarge(over.Limit, over.Max, '');
  error.message = message;
  return error;
}
