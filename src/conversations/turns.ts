// One turn of one conversation, atomically: load, decide (maybe running the engine, whose HTTP
// calls happen here, outside any transaction), then commit state, history, queued messages,
// webhook outbox rows and usage together. Turns of a conversation are serialized by a keyed
// mutex in this process, and across processes by the revision check in `save`: a turn that lost
// the race is decided again on the fresh state. The same check lets a turn start from this node's
// own last copy of the conversation instead of reading it (conversation-cache.ts).
import { KeyedMutex } from '../shared/mutex.js';
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { ConversationStorage, TurnWrites } from './port.js';
import { planWebhooks, type TurnMessage } from './webhook-plan.js';
import { webhookUrlOf } from '../webhooks/webhook-url.js';
import type { EventBus } from './events.js';
import { cutToBytes } from '../shared/utf8.js';
import { LIMITS } from './limits.js';
import { CACHED_CONVERSATIONS, ConversationCache } from './conversation-cache.js';
import type { ConversationRecord, NewMissedText } from './model.js';
import type { BotRecord } from '../bots/model.js';
import type { UsageAdded } from '../accounts/model.js';
import type { NewOutboxRow } from '../webhooks/model.js';

/** Outbox rows that deliver a turn's messages on the conversation's messaging platform, if any. */
export type ChannelDeliveryPlan = (bot: BotRecord, conversation: ConversationRecord, messages: TurnMessage[], now: number) => NewOutboxRow[];

/** A user text that reached a fallback, and where. */
export interface MissedText {
  text: string;
  behaviour: string;
  interaction: string;
}

export interface TurnResult<T> {
  /** the conversation to write: new (id 0) or changed; absent when nothing about it changed */
  save?: ConversationRecord;
  messages?: TurnMessage[];
  usage?: UsageAdded;
  /** user texts that reached a fallback (understanding.md), written with the turn */
  missedTexts?: MissedText[];
  /** more writes that must commit with the turn (shares, …) */
  alsoWrite?: (tx: TurnWrites, conversationId: number) => Promise<void>;
  /** `<broadcast id>:<run>`: the rows delivering this turn to its user report to that broadcast's counts */
  broadcastTag?: string;
  /** runs once the transaction committed (fire-and-forget work) */
  afterCommit?: (conversation: ConversationRecord) => void;
  reply: T;
}

// Another node may win the race for the same conversation again and again while its own queue of
// turns drains; a loser backs off a little (jittered, so two nodes fall out of lockstep) and tries
// again until the deadline, so that a busy conversation is served late rather than refused.
const RETRY_DEADLINE_MS = 30_000;
const MAX_BACKOFF_MS = 50;
const NO_USAGE = { messages: 0, replies: 0, notifications: 0, apiCalls: 0 };

export class ConversationTurns {
  private readonly mutex = new KeyedMutex();
  /** turns under way: a client that hangs up does not stop its turn, and shutdown waits for them */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** this node's last copy of the conversations it served (conversation-cache.ts) */
  private readonly cache: ConversationCache;

  constructor(
    private readonly store: ConversationStorage,
    private readonly clock: Clock,
    private readonly events: EventBus,
    /** told when outbox rows were written, so deliveries start without waiting for a poll */
    private readonly onOutbox: () => void = () => undefined,
    /** the platform deliveries of a turn on a messaging channel (channels/messaging/outbound.ts) */
    private readonly channelDeliveries: ChannelDeliveryPlan = () => [],
    cachedConversations = CACHED_CONVERSATIONS,
  ) {
    this.cache = new ConversationCache(() => clock.now(), cachedConversations);
  }

  /** Runs `work` while no turn of this conversation runs in this process. */
  exclusive<T>(botId: string, userId: string, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(`${botId}\u0000${userId}`, work);
  }

  /** Resolves when every turn under way has committed or failed (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  run<T>(bot: BotRecord, userId: string, decide: (current: ConversationRecord | null) => Promise<TurnResult<T>>): Promise<T> {
    const turn = this.runTurn(bot, userId, decide);
    this.inFlight.add(turn);
    void turn.then(
      () => this.inFlight.delete(turn),
      () => this.inFlight.delete(turn),
    );
    return turn;
  }

  private runTurn<T>(bot: BotRecord, userId: string, decide: (current: ConversationRecord | null) => Promise<TurnResult<T>>): Promise<T> {
    const key = `${bot.id}\u0000${userId}`;
    return this.exclusive(bot.id, userId, async () => {
      const startedAt = Date.now();
      for (let attempt = 1; ; attempt++) {
        // The copy this node committed last, else the database; after a lost race, the database.
        const cached = attempt === 1 ? this.cache.get(key) : undefined;
        const current = cached ?? (await this.store.conversations.byUser(bot.id, userId));
        let committed: Awaited<ReturnType<typeof this.commit>>;
        let result: TurnResult<T>;
        try {
          result = await decide(current);
          committed = await this.commit(bot, current, result);
        } catch (error) {
          // a failed commit may or may not have reached the database: read it next time
          this.cache.drop(key);
          throw error;
        }
        if (committed) {
          const saved = committed === true ? result.save : committed.conversation;
          const latest = committed === true ? current : (saved ?? current);
          if (latest) this.cache.remember(key, latest);
          if (saved) this.announce(current, saved, result.messages ?? []);
          if (committed !== true && committed.outbox > 0) this.onOutbox();
          if (result.afterCommit && saved) result.afterCommit(saved);
          return result.reply;
        }
        this.cache.drop(key, cached !== undefined);
        if (Date.now() - startedAt > RETRY_DEADLINE_MS) throw new AppError('UNAVAILABLE', 'The conversation is too busy; try again.');
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt)));
      }
    });
  }

  /** Live events for what this turn committed: its messages, then a control-state change. */
  private announce(before: ConversationRecord | null, after: ConversationRecord, messages: TurnMessage[]): void {
    if (!this.events.wanted()) return;
    const base = { botId: after.botId, userId: after.userId, channel: after.channel, at: this.clock.now() };
    // The turn knows where it left the conversation; listeners need not read it back.
    const enableUserChat = [...messages].reverse().find((m) => m.enableUserChat !== undefined)?.enableUserChat ?? true;
    for (const m of messages) {
      this.events.publish({ ...base, kind: 'message', direction: m.direction, parts: m.parts, enableUserChat, controlType: after.controlState });
    }
    if (!before || before.controlState !== after.controlState || before.operator !== after.operator) {
      this.events.publish({ ...base, kind: 'state', state: after.controlState, operator: after.operator });
    }
  }

  /** Returns false when another writer got there first (the turn is then decided again). */
  private async commit<T>(bot: BotRecord, before: ConversationRecord | null, result: TurnResult<T>): Promise<{ conversation: ConversationRecord; outbox: number } | boolean> {
    const { messages = [], usage, alsoWrite } = result;
    if (!result.save) return true;
    const now = this.clock.now();
    // The moment the control state changed is kept, so the console shows how long a user really waited.
    const save = before && before.controlState === result.save.controlState ? result.save : { ...result.save, controlChangedAt: now };
    // Stored cut (docs/limits.md "Missed texts"): the grouping key is indexed, and a database
    // index takes a bounded key only (PostgreSQL's btree refuses one over 2.7 KB).
    // how many missed texts the conversation keeps after this turn, or -1: no trim on this turn
    const keepMissed = save.revision % LIMITS.missedTextsTrimEvery === 0 ? LIMITS.missedTextsPerConversation : -1;
    const missedTexts = (conversationId: number): NewMissedText[] =>
      (result.missedTexts ?? []).map((m) => ({
        ...m,
        text: cutToBytes(m.text, LIMITS.missedTextBytes),
        botId: bot.id,
        conversationId,
        key: cutToBytes(m.text.trim().toLowerCase(), LIMITS.missedTextBytes),
        createdAt: now,
      }));
    // Pushed messages on the custom channel wait for a PENDING poll unless a webhook takes them.
    const queue = save.channel === 'custom' && !webhookUrlOf(bot);
    const month = this.clock.iso(now).slice(0, 7);
    // The usual turn (a conversation that exists, no webhook or platform delivery, nothing else to write) through
    // the store's saveTurn (one statement on PostgreSQL, a lean group member on SQLite); the rest, or a
    // history to trim, below.
    // A messaging conversation's replies go to the outbox with the turn: never the fast path.
    // Planned once for an existing conversation (rendering a platform's calls is not free); a new
    // one is planned in the transaction, once it has its id.
    const planned = save.id !== 0 && messages.length > 0 ? this.channelDeliveries(bot, save, messages, now) : null;
    const platformBound = planned !== null && planned.length > 0;
    // A CSAT answer (rare) is written with the turn, so such a turn takes the transaction below.
    const rating = csatAnswerOf(before, save);
    if (this.store.saveTurn && save.id !== 0 && !alsoWrite && !webhookUrlOf(bot) && !platformBound && rating === null) {
      const outcome = await this.store.saveTurn({
        conversation: { ...save, updatedAt: now },
        controlChanged: before === null || controlChanged(before, save),
        missedTexts: missedTexts(save.id),
        messages: messages.map((m) => ({ direction: m.direction, parts: m.parts, pending: m.pushed && queue })),
        usage: usage ? { accountId: bot.accountId, month, add: { ...NO_USAGE, ...usage } } : null,
        limits: { messages: LIMITS.historyMessages, bytes: LIMITS.historyBytes, missedTexts: keepMissed },
      });
      if (outcome === 'saved') return { conversation: { ...save, revision: save.revision + 1, updatedAt: now }, outbox: 0 };
      if (outcome === 'conflict') return false;
    }
    return this.store.transaction(async (tx) => {
      let conversation: ConversationRecord;
      if (save.id === 0) {
        const id = await tx.conversations.insert({ ...save, updatedAt: now });
        if (id === null) return false;
        conversation = { ...save, id, updatedAt: now };
      } else {
        if (!(await tx.conversations.save({ ...save, updatedAt: now }))) return false;
        conversation = { ...save, revision: save.revision + 1, updatedAt: now };
      }
      if (messages.length > 0) {
        const size = await tx.conversations.appendMessages(
          conversation.id,
          messages.map((m) => ({ direction: m.direction, parts: m.parts, pending: m.pushed && queue })),
          now,
        );
        // The history is bounded on write, oldest first (docs/limits.md), so READY stays bounded too.
        if (size.messages > LIMITS.historyMessages || size.bytes > LIMITS.historyBytes) {
          await tx.conversations.trimHistory(conversation.id, LIMITS.historyMessages, LIMITS.historyBytes);
        }
      }
      const plan = planWebhooks(bot, before, conversation, messages, now);
      const deliveries = planned ?? (messages.length > 0 ? this.channelDeliveries(bot, conversation, messages, now) : []);
      for (const row of [...plan.rows, ...deliveries]) await tx.outbox.insert(result.broadcastTag && reachesUser(conversation, row) ? { ...row, broadcast: result.broadcastTag } : row);
      const counted = { ...NO_USAGE, ...usage, notifications: (usage?.notifications ?? 0) + plan.notifications };
      if (usage || plan.notifications > 0) await tx.accounts.addUsage(bot.accountId, month, counted);
      await tx.missedTexts.add(conversation.id, missedTexts(conversation.id), keepMissed);
      if (alsoWrite) await alsoWrite(tx, conversation.id);
      if (rating !== null) await tx.analytics.addCsat({ conversationId: conversation.id, botId: bot.id, rating, at: now });
      return { conversation, outbox: plan.rows.length + deliveries.length };
    });
  }
}

/** An outbox row that delivers to the conversation's user: a platform call, or the custom channel's own webhook message. */
function reachesUser(conversation: ConversationRecord, row: NewOutboxRow): boolean {
  return row.target === 'channel' || (conversation.channel === 'custom' && row.event === 'message');
}

/**
 * The rating a turn gave, when it set the well-known variable `csat` to 1..5 (docs/analytics.md);
 * null otherwise, also when it was already that value: the same answer again is no new answer.
 */
function csatAnswerOf(before: ConversationRecord | null, after: ConversationRecord): number | null {
  const value = after.state.variables.csat;
  if (value === undefined || value === before?.state.variables.csat) return null;
  return /^[1-5]$/.test(value) ? Number(value) : null;
}

/** Whether a turn changed a column that only control changes touch (the store may skip them otherwise). */
function controlChanged(before: ConversationRecord, after: ConversationRecord): boolean {
  return (
    before.controlState !== after.controlState ||
    before.operator !== after.operator ||
    before.banExpiration !== after.banExpiration ||
    before.banMessage !== after.banMessage ||
    before.forgetting !== after.forgetting ||
    before.channel !== after.channel ||
    before.controlChangedAt !== after.controlChangedAt
  );
}
