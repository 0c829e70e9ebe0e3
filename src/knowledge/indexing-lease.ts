// A source indexed in the background (over 1 MiB) is read from a document held only in the memory
// of the node that took it: if that node stops, nothing can finish it, and the source would say
// `indexing` for ever. So the node holds a lease on it (store/knowledge-leases.ts), pushed forward
// while the indexing runs (it may wait its turn in the indexer's queue for minutes); any node's
// maintenance marks failed a source whose lease ran out, with a reason that says to send it again.
// The document is not kept anywhere, so it cannot be queued again. SQLite has one process: at its
// start every source still `indexing` was left by the one before, and is marked failed at once.
import type { Clock } from '../shared/clock.js';
import type { KnowledgeStorage } from './port.js';

export const INDEXING_LEASE_MS = 60_000;
/** how often a held lease is pushed forward: a third of it, so one missed beat loses nothing */
const RENEW_MS = INDEXING_LEASE_MS / 3;
export const INTERRUPTED = 'indexing was interrupted because the server stopped; send the source again';

export class IndexingLeases {
  constructor(private readonly deps: { store: Pick<KnowledgeStorage, 'knowledgeLeases'>; clock: Clock; onError?: (error: unknown) => void }) {}

  /** Holds the lease on this generation of the source until the returned release is called. */
  hold(id: string, generation: number): () => void {
    const claim = () => this.deps.store.knowledgeLeases.claim(id, generation, this.deps.clock.now() + INDEXING_LEASE_MS).catch((e) => this.deps.onError?.(e));
    void claim();
    const timer = setInterval(() => void claim(), RENEW_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Maintenance: marks failed the sources whose lease ran out (a node stopped while indexing them). */
  failAbandoned(): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.store.knowledgeLeases.failAbandoned(now, now, now - INDEXING_LEASE_MS, INTERRUPTED);
  }

  /** SQLite at start: no other process can be indexing, so every source still `indexing` was left. */
  failAllInterrupted(): Promise<number> {
    return this.deps.store.knowledgeLeases.failAbandoned(this.deps.clock.now(), Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, INTERRUPTED);
  }
}
