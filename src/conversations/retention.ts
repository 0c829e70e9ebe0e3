// What the maintenance pass deletes because it is old or too much (docs/limits.md): missed texts
// older than their age limit or beyond a bot's newest (a conversation's own bound is kept by the
// turn's write), outbox rows delivered more than a week ago or older than a bot's newest 1,000, and
// failed ones a month after their last attempt, and a conversation's analytics events beyond its
// newest 1,000. Pending rows are never deleted: what was acknowledged is delivered. Runs at most once a minute per
// node; every step is idempotent, so any number of nodes may run it.
import type { Clock } from '../shared/clock.js';
import { LIMITS } from './limits.js';
import { DAY_MS } from '../shared/durations.js';

/** Delivered outbox rows (bodies hold what was said) are kept this long for GET /bots/{APIKey}/deliveries. */
export const DELIVERED_OUTBOX_DAYS = 7;
/**
 * And only a bot's newest this many rows keep their delivered ones: twice what the deliveries list
 * shows. A week alone let a busy bot keep gigabytes (the 10-minute soak stored 18 MB of them).
 */
export const DELIVERED_OUTBOX_PER_BOT = 1000;
/**
 * Analytics events (control-state changes, CSAT answers) a conversation keeps, newest first: a
 * client that toggles a conversation's state through the API adds one at each call.
 */
export const ANALYTICS_EVENTS_PER_CONVERSATION = 1000;
/** Failed ones are kept longer, so that an integrator back from a long outage can still redeliver them. */
export const FAILED_OUTBOX_DAYS = 30;
const EVERY_MS = 60_000;
/** Rows one DELETE takes: the writer is free between batches. */
const BATCH = 1000;

/** What retention deletes from (store/understanding.ts, outbox.ts, analytics.ts), in batches. */
export interface RetentionStorage {
  missedTexts: {
    pruneBefore(before: number, batch: number): Promise<number>;
    botsSince(since: number): Promise<string[]>;
    keepNewest(botId: string, keep: number): Promise<number>;
  };
  outbox: {
    pruneDelivered(before: number, batch: number): Promise<number>;
    botsDeliveredSince(since: number): Promise<string[]>;
    pruneDeliveredBeyond(botId: string, keep: number, batch: number): Promise<number>;
    pruneFailed(before: number, batch: number): Promise<number>;
  };
  analytics: {
    lastEventId(): Promise<number>;
    conversationsOverEvents(afterId: number, keep: number): Promise<number[]>;
    keepNewestEvents(conversationId: number, keep: number): Promise<number>;
  };
}

export class Retention {
  /** when the last pass started (0: never, so the first pass caps every bot) */
  private ranAt = 0;
  /**
   * The newest analytics event the last pass saw: only conversations with a later one can have
   * gone over their cap. Starts at the newest at the first pass (null until then), so a restart
   * does not read the whole table; a conversation over its cap from before is trimmed at its next
   * event.
   */
  private eventsSeen: number | null = null;

  constructor(private readonly deps: { store: RetentionStorage; clock: Clock; eventsPerConversation?: number }) {}

  /** One pass when due; cheap otherwise. */
  async run(): Promise<void> {
    const now = this.deps.clock.now();
    if (this.ranAt !== 0 && now - this.ranAt < EVERY_MS) return;
    const since = this.ranAt;
    this.ranAt = now;
    const { missedTexts, outbox, analytics } = this.deps.store;
    await inBatches((batch) => missedTexts.pruneBefore(now - LIMITS.missedTextDays * DAY_MS, batch));
    // Only a bot that missed something since the last pass can be over its cap.
    for (const botId of await missedTexts.botsSince(since)) await missedTexts.keepNewest(botId, LIMITS.missedTextsPerBot);
    await inBatches((batch) => outbox.pruneDelivered(now - DELIVERED_OUTBOX_DAYS * DAY_MS, batch));
    for (const botId of await outbox.botsDeliveredSince(since)) await inBatches((batch) => outbox.pruneDeliveredBeyond(botId, DELIVERED_OUTBOX_PER_BOT, batch));
    await inBatches((batch) => outbox.pruneFailed(now - FAILED_OUTBOX_DAYS * DAY_MS, batch));
    const newest = await analytics.lastEventId();
    if (this.eventsSeen !== null && newest > this.eventsSeen) {
      const keep = this.deps.eventsPerConversation ?? ANALYTICS_EVENTS_PER_CONVERSATION;
      for (const id of await analytics.conversationsOverEvents(this.eventsSeen, keep)) await analytics.keepNewestEvents(id, keep);
    }
    this.eventsSeen = newest;
  }
}

async function inBatches(deleteSome: (batch: number) => Promise<number>): Promise<void> {
  while ((await deleteSome(BATCH)) === BATCH);
}
