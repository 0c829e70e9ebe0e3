// One turn of one conversation, atomically: load, decide (maybe running the engine, whose HTTP
// calls happen here, outside any transaction), then commit state, history and usage together.
// Turns of a conversation are serialized by a keyed mutex in this process, and across processes by
// the revision check in `save`: a turn that lost the race is run again on the fresh state.
import { KeyedMutex } from '../shared/mutex.js';
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { Repositories, Store } from '../store/index.js';
import type { ConversationRecord, NewMessage } from '../store/conversations.js';
import type { UsageRecord } from '../store/records.js';
import type { EventBus } from './events.js';

export interface TurnResult<T> {
  /** the conversation to write: new (id 0) or changed; absent when nothing about it changed */
  save?: ConversationRecord;
  messages?: NewMessage[];
  usage?: Omit<UsageRecord, 'month'>;
  /** more writes that must commit with the turn (outbox rows, shares, …) */
  alsoWrite?: (tx: Repositories, conversationId: number) => Promise<void>;
  /** runs once the transaction committed (fire-and-forget work) */
  afterCommit?: (conversation: ConversationRecord) => void;
  reply: T;
}

const MAX_ATTEMPTS = 5;

export class ConversationTurns {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  /** Runs `work` while no turn of this conversation runs in this process. */
  exclusive<T>(botId: string, userId: string, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(`${botId}\u0000${userId}`, work);
  }

  run<T>(
    accountId: string,
    botId: string,
    userId: string,
    decide: (current: ConversationRecord | null) => Promise<TurnResult<T>>,
  ): Promise<T> {
    return this.exclusive(botId, userId, async () => {
      for (let attempt = 1; ; attempt++) {
        const current = await this.store.conversations.byUser(botId, userId);
        const result = await decide(current);
        const committed = await this.commit(accountId, result);
        if (committed) {
          const saved = committed === true ? result.save : committed;
          if (saved) this.announce(current, saved, result.messages ?? []);
          if (result.afterCommit && saved) result.afterCommit(saved);
          return result.reply;
        }
        if (attempt >= MAX_ATTEMPTS) throw new AppError('INTERNAL', 'The conversation is too busy; try again.');
      }
    });
  }

  /** Live events for what this turn committed: its messages, then a control-state change. */
  private announce(before: ConversationRecord | null, after: ConversationRecord, messages: NewMessage[]): void {
    const base = { botId: after.botId, userId: after.userId, channel: after.channel, at: this.clock.now() };
    for (const m of messages) this.events.publish({ ...base, kind: 'message', direction: m.direction, parts: m.parts });
    if (!before || before.controlState !== after.controlState || before.operator !== after.operator) {
      this.events.publish({ ...base, kind: 'state', state: after.controlState, operator: after.operator });
    }
  }

  /** Returns false when another writer got there first (the turn is then run again). */
  private async commit<T>(accountId: string, result: TurnResult<T>): Promise<ConversationRecord | boolean> {
    const { save, messages = [], usage, alsoWrite } = result;
    if (!save && messages.length === 0 && !usage) return true;
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      let conversation = save;
      if (save) {
        if (save.id === 0) {
          const id = await tx.conversations.insert({ ...save, createdAt: save.createdAt, updatedAt: now });
          if (id === null) return false;
          conversation = { ...save, id };
        } else if (!(await tx.conversations.save({ ...save, updatedAt: now }))) {
          return false;
        }
      }
      if (conversation && messages.length > 0) await tx.conversations.appendMessages(conversation.id, messages, now);
      if (usage) await tx.accounts.addUsage(accountId, this.clock.iso(now).slice(0, 7), usage);
      if (conversation && alsoWrite) await alsoWrite(tx, conversation.id);
      return conversation ?? true;
    });
  }
}
