// Forgetting a user (api.md section 8, `forget`; the flow's `forget` action): the conversation is
// marked `forgetting` in the turn that asked for it, and deleted — every row: messages, shares,
// queued webhooks — right after that turn committed. A stop in between leaves the mark, and the
// maintenance loop deletes what is marked on its next pass (and at start). The forget is complete,
// and `forgotten` published, once the store has erased the deleted rows from its files as well
// (SQLite's write-ahead log; docs/limits.md "Forgetting").
import type { Clock } from '../shared/clock.js';
import type { EventBus } from './events.js';
import type { ConversationRecord } from './model.js';
import type { ConversationStorage } from './port.js';

export class Forgetting {
  constructor(
    private readonly store: ConversationStorage,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  /** Deletes a conversation marked as forgetting, in the background; listeners hear `forgotten` once it is erased. */
  forget(c: Pick<ConversationRecord, 'id' | 'botId' | 'userId' | 'channel'>): void {
    void this.store.conversations
      .remove(c.id)
      // the store keeps trying until it gets through (and logs when it cannot); it rejects only when closing
      .then(() => this.store.eraseDeleted())
      .then(() => this.events.publish({ kind: 'forgotten', botId: c.botId, userId: c.userId, channel: c.channel, at: this.clock.now() }))
      // a failed deletion stays marked: the maintenance loop deletes it on its next pass
      .catch(() => undefined);
  }

  /**
   * Deletes conversations marked as forgetting by a retention run (retention-policy.ts), one after
   * the other, then erases them in the background and publishes `forgotten` for each, as forget does.
   */
  async forgetMarked(marked: Array<Pick<ConversationRecord, 'id' | 'botId' | 'userId' | 'channel'>>): Promise<void> {
    for (const c of marked) await this.store.conversations.remove(c.id);
    void this.store
      .eraseDeleted()
      .then(() => {
        for (const c of marked) this.events.publish({ kind: 'forgotten', botId: c.botId, userId: c.userId, channel: c.channel, at: this.clock.now() });
      })
      .catch(() => undefined);
  }

  /** Deletes every conversation still marked (a forget that a stop interrupted), then erases them in the background. */
  async finishInterrupted(): Promise<void> {
    const ids = await this.store.conversations.forgettingIds();
    for (const id of ids) await this.store.conversations.remove(id);
    // not awaited: the maintenance loop's other chores go on while the store tries
    if (ids.length > 0) void this.store.eraseDeleted().catch(() => undefined);
  }
}
