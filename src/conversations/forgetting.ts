// Forgetting a user (api.md section 8, `forget`; the flow's `forget` action): the conversation is
// marked `forgetting` in the turn that asked for it, and deleted — every row: messages, shares,
// queued webhooks — right after that turn committed. A stop in between leaves the mark, and the
// maintenance loop deletes what is marked on its next pass (and at start).
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

  /** Deletes a conversation marked as forgetting, in the background; listeners hear `forgotten`. */
  forget(c: ConversationRecord): void {
    void this.store.conversations
      .remove(c.id)
      .then(() => this.events.publish({ kind: 'forgotten', botId: c.botId, userId: c.userId, channel: c.channel, at: this.clock.now() }))
      // a failed deletion stays marked: the maintenance loop deletes it on its next pass
      .catch(() => undefined);
  }

  /** Deletes every conversation still marked (a forget that a stop interrupted). */
  async finishInterrupted(): Promise<void> {
    for (const id of await this.store.conversations.forgettingIds()) await this.store.conversations.remove(id);
  }
}
