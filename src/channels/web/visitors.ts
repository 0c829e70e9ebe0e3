// What the web channel tells operators about a visitor, and the visitor about the wait: the page's
// context recorded with each start or resume, "the visitor is typing" (a live event only, at most
// one every two seconds a conversation), and a waiting conversation's place in the queue.
import type { EventBus } from '../../conversations/events.js';
import type { ConversationRecord } from '../../conversations/model.js';
import type { BotRecord } from '../../bots/model.js';
import type { Store } from '../../store/index.js';
import type { WebVisitorContext } from './model.js';

/** A visitor types in bursts; operators need to know they are at it, not every key. */
const TYPING_EVERY_MS = 2000;
/** Conversations whose last typing event is remembered; beyond, the oldest are forgotten. */
const TYPING_REMEMBERED = 10_000;

export interface WebVisitorsDeps {
  store: Store;
  events: EventBus;
  clock: { now(): number };
}

export class WebVisitors {
  private readonly typedAt = new Map<number, number>();

  constructor(private readonly deps: WebVisitorsDeps) {}

  /** Records what the page said about the visitor (every field bounded by the route). */
  async note(bot: BotRecord, conversation: ConversationRecord, context: WebVisitorContext | undefined): Promise<void> {
    if (!context) return;
    await this.deps.store.webVisitors.note(conversation.id, bot.id, context, this.deps.clock.now());
  }

  /** Publishes "the visitor is typing" to the console; false when one went out less than 2 s ago. */
  typing(conversation: ConversationRecord): boolean {
    const now = this.deps.clock.now();
    const last = this.typedAt.get(conversation.id);
    if (last !== undefined && now - last < TYPING_EVERY_MS) return false;
    this.typedAt.delete(conversation.id);
    this.typedAt.set(conversation.id, now);
    if (this.typedAt.size > TYPING_REMEMBERED) this.typedAt.delete(this.typedAt.keys().next().value!);
    this.deps.events.publish({ kind: 'visitorTyping', botId: conversation.botId, userId: conversation.userId, channel: conversation.channel, at: now });
    return true;
  }

  /** Where a conversation waiting for a person stands: 1 is next; null when it does not wait. */
  position(bot: BotRecord, conversation: ConversationRecord): Promise<number | null> {
    return this.deps.store.webVisitors.queuePosition(bot.accountId, conversation.id);
  }

  /** The picture of the operator who has the conversation, if they set one. */
  operatorAvatar(bot: BotRecord, email: string | null): Promise<string | null> {
    return email ? this.deps.store.webVisitors.operatorAvatar(bot.accountId, email.toLowerCase()) : Promise.resolve(null);
  }
}
