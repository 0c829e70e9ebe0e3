// What the web channel tells operators about a visitor, and the visitor about the wait: the page's
// context recorded with each start or resume, "the visitor is typing" (a live event only, at most
// one every two seconds a conversation), and a waiting conversation's place in the queue with the
// bot's usual reply time.
import type { EventBus } from '../../conversations/events.js';
import type { ConversationRecord } from '../../conversations/model.js';
import type { BotRecord } from '../../bots/model.js';
import type { WebVisitorStorage } from './port.js';
import type { WebVisitorContext } from './model.js';
import { durationsOf } from '../../shared/durations.js';

/** Expected reply: the bot's newest waits of the last week that an operator answered… */
export const EXPECTED_REPLY_WAITS = 20;
/** …read among at most this many newest waits (answered or not)… */
const EXPECTED_REPLY_READ = 100;
/** …and none promised on fewer answered waits than this. */
export const EXPECTED_REPLY_MIN = 5;
const WEEK_MS = 7 * 86_400_000;

/** A visitor types in bursts; operators need to know they are at it, not every key. */
const TYPING_EVERY_MS = 2000;
/** Conversations whose last typing event is remembered; beyond, the oldest are forgotten. */
const TYPING_REMEMBERED = 10_000;

export interface WebVisitorsDeps {
  store: WebVisitorStorage;
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

  /**
   * How long an operator of this bot usually takes to answer a wait for a person: the median
   * (nearest rank, whole seconds) of the first responses of its newest answered waits of the last
   * 7 days (docs/analytics.md "Waiting, first response and CSAT": request to first operator
   * message). Null without enough of them: the widget then promises nothing.
   */
  async expectedReplySeconds(bot: BotRecord): Promise<number | null> {
    const now = this.deps.clock.now();
    const waits = await this.deps.store.analytics.waits(bot.id, { from: now - WEEK_MS, to: now + 1 }, EXPECTED_REPLY_READ, 'newest');
    const answered = waits.filter((w) => w.answeredAt !== null).slice(0, EXPECTED_REPLY_WAITS);
    if (answered.length < EXPECTED_REPLY_MIN) return null;
    return durationsOf(answered.map((w) => w.answeredAt! - w.requestedAt)).P50Seconds;
  }

  /** The picture of the operator who has the conversation, if they set one. */
  operatorAvatar(bot: BotRecord, email: string | null): Promise<string | null> {
    return email ? this.deps.store.webVisitors.operatorAvatar(bot.accountId, email.toLowerCase()) : Promise.resolve(null);
  }
}
