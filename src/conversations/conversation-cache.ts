// The conversations this node served last, kept in memory so that a turn need not read its
// conversation back (on PostgreSQL a round trip, on SQLite a read whose page cache every commit
// empties, and a JSON parse on both). Correctness stays with the database: a turn saves only if
// the stored revision is still the one it decided on (turns.ts), so a cached copy that another
// node, or a deletion, made stale costs one wasted decision and a fresh read, never a lost write.
//
// A conversation whose cached copy turned out stale is not cached again for a while: behind a load
// balancer without sticky sessions its turns alternate between nodes, and caching it would make
// every other turn decide twice.
import type { ConversationRecord } from './model.js';

/** conversations kept; the least recently used goes first */
export const CACHED_CONVERSATIONS = 20_000;
/** how long a conversation found stale is read from the database instead */
const CONTENDED_MS = 5 * 60_000;

export class ConversationCache {
  private readonly entries = new Map<string, ConversationRecord>();
  private readonly contended = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly capacity = CACHED_CONVERSATIONS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): ConversationRecord | undefined {
    return this.entries.get(key);
  }

  /** The conversation as this node just committed (or read) it. */
  remember(key: string, conversation: ConversationRecord): void {
    this.entries.delete(key);
    const until = this.contended.get(key);
    if (until !== undefined) {
      if (until > this.now()) return;
      this.contended.delete(key);
    }
    // A conversation being forgotten is about to be deleted: its next turn must see that.
    if (conversation.forgetting || this.capacity === 0) return;
    this.entries.set(key, conversation);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forgets the cached copy; `stale`: it was out of date, so keep this conversation out for a while. */
  drop(key: string, stale = false): void {
    this.entries.delete(key);
    if (!stale) return;
    this.contended.delete(key);
    this.contended.set(key, this.now() + CONTENDED_MS);
    if (this.contended.size > this.capacity) this.contended.delete(this.contended.keys().next().value!);
  }
}
