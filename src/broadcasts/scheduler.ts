// Runs broadcasts (broadcasts.md) inside the server process, on every node: no scheduler service.
// A node leases a broadcast that needs driving (in the database, like the webhook outbox's
// claims); the lease is renewed on each pass and simply runs out when its node dies, and another
// node takes the broadcast over. A run starts by writing its recipients (the audience at that
// moment) in one transaction with the status change; each recipient is then claimed, and marked
// sent in the very transaction of its conversation's turn, so neither a crash nor a second node
// sends one twice, and a claim whose node died runs out and the recipient is tried again.
// The lease holder paces each channel (a token bucket per broadcast and channel), so the
// platforms' rate limits hold across the cluster.
import type { BotRecord } from '../bots/model.js';
import type { ConversationService } from '../conversations/service.js';
import type { Clock } from '../shared/clock.js';
import type { BroadcastStorage } from './port.js';
import type { DeliveryTarget } from '../webhooks/delivery-target.js';
import { retryDelay } from '../webhooks/dispatcher.js';
import { MAX_AUDIENCE, walkAudience } from './audience.js';
import type { BroadcastRecord, ClaimedRecipient, NewRecipient } from './model.js';
import { noticeBody } from './notice.js';
import { inUserZone, nextOccurrence, REPEAT_MIN_GAP_MS, runTime, USER_ZONE_LEAD_MS } from './schedule.js';
import { deliverNotice } from './notice-delivery.js';

/** recipients a second per channel unless the bot says otherwise (the platforms' documented limits) */
export const DEFAULT_RATES: Record<string, number> = { telegram: 30, whatsapp: 80, messenger: 40, slack: 20, sms: 1, chatwoot: 20, instagram: 40, teams: 20, custom: 200, web: 200 };
const CHANNELS = Object.keys(DEFAULT_RATES);
/** broadcasts one node drives at once */
const LEASE_BATCH = 10;
/** turns under way at once per broadcast on this node */
const CONCURRENCY = 32;
/**
 * recipients claimed per channel and pass: a pass ends (and the lease is renewed) long before the
 * claims run out, even on a slow node, so another node never claims what is still queued here
 */
const BATCH = 64;

export interface SchedulerOptions {
  /** this node's name in leases */
  node: string;
  /** how long a lease and a recipient's claim outlive a dead node */
  claimMs: number;
  pollMs?: number;
  /** conversations read per audience query (AUDIENCE_PAGE) */
  audiencePage?: number;
  onError?: (error: unknown) => void;
}

export class BroadcastScheduler {
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** token buckets: `<broadcast>\0<channel>` → tokens and when they were counted */
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly store: BroadcastStorage,
    private readonly clock: Clock,
    private readonly conversations: Pick<ConversationService, 'broadcast' | 'live'>,
    private readonly webhook: DeliveryTarget,
    private readonly options: SchedulerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.loop = this.spin();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await this.store.broadcasts.release(this.options.node).catch(() => undefined);
  }

  /** Looks now instead of at the next poll (a broadcast was created or cancelled). */
  wake(): void {
    this.wakeUp?.();
  }

  private async spin(): Promise<void> {
    while (!this.stopped) {
      let busy = false;
      try {
        busy = await this.runOnce();
      } catch (error) {
        this.options.onError?.(error);
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, busy ? 20 : (this.options.pollMs ?? 250));
        this.wakeUp = () => (clearTimeout(timer), resolve());
      });
      this.wakeUp = null;
    }
  }

  /** One pass: drives every broadcast this node holds or can lease; true when it sent something. */
  async runOnce(): Promise<boolean> {
    const now = this.clock.now();
    const leased = await this.store.broadcasts.lease(this.options.node, now, now + this.options.claimMs, LEASE_BATCH);
    let busy = false;
    for (const b of leased) {
      try {
        busy = (await this.drive(b)) || busy;
      } catch (error) {
        this.options.onError?.(error);
      }
    }
    await deliverNotices(this.store, this.webhook, this.clock, this.options.claimMs);
    return busy;
  }

  private async drive(b: BroadcastRecord): Promise<boolean> {
    const bot = await this.store.bots.byId(b.botId);
    if (!bot) return false;
    if (b.status === 'scheduled') return this.startRun(bot, b);
    const sent = await this.sendSome(bot, b);
    if (!sent && (await this.store.broadcasts.counts(b.id, b.run)).Pending === 0) await this.finishRun(bot, b);
    return sent;
  }

  /**
   * The run's recipients, written with the status change; a run by users' zones starts up to 26 h
   * before At. The run stands for the time it was scheduled for, however late this node comes to
   * it (downtime): the next run is the first of the series at least half a period after this one
   * (REPEAT_MIN_GAP_MS), so the runs missed meanwhile are not sent in a burst.
   */
  private async startRun(bot: BotRecord, b: BroadcastRecord): Promise<boolean> {
    const now = this.clock.now();
    const run = b.run + 1;
    const lead = b.spec.UserTimeZone ? USER_ZONE_LEAD_MS : 0;
    const at = (b.nextRunAt ?? b.at) + lead;
    if (!b.spec.UserTimeZone && at > now) return false;
    const until = b.spec.Repeat?.Until;
    if (until !== undefined && (at > until || now > until)) return (await this.finishRun(bot, { ...b, nextRunAt: null }), false);
    const repeat = b.spec.Repeat;
    const nextRunAt = repeat ? nextOccurrence(b.at, repeat.Every, b.spec.AtOffsetMinutes, Math.max(at, now + lead) + REPEAT_MIN_GAP_MS[repeat.Every]) - lead : null;
    const behaviours = await this.conversations.live(bot).then(
      (c) => c.behaviours,
      () => null,
    );
    if (!behaviours) return this.fail(bot, b, 'the bot has no published version');
    if (b.spec.Behaviour !== null && !behaviours.has(b.spec.Behaviour.toLowerCase())) return this.fail(bot, b, `the live bot has no behaviour named ${b.spec.Behaviour}`);
    const recipients: NewRecipient[] = [];
    const seen = await walkAudience(
      this.store.broadcasts,
      bot,
      b.spec.Audience,
      this.clock,
      (c) => {
        const zone = b.spec.UserTimeZone ? c.state.variables.timezone : undefined;
        const due = zone ? (inUserZone(at, b.spec.AtOffsetMinutes, zone) ?? at) : at;
        recipients.push({ conversationId: c.conversationId, channel: c.channel, dueAt: due });
        return recipients.length <= MAX_AUDIENCE;
      },
      this.options.audiencePage,
    );
    if (seen > MAX_AUDIENCE) return this.fail(bot, b, `the audience is over ${MAX_AUDIENCE} conversations`);
    const started = await this.store.transaction(async (tx) => {
      if (!(await tx.broadcasts.update(b.id, this.options.node, { status: 'running', run, nextRunAt }, now))) return false;
      await tx.broadcasts.addRecipients(b.id, run, recipients);
      return true;
    });
    if (started) await this.notify(bot, { ...b, status: 'running', run });
    return started;
  }

  /** Claims what each channel's pace allows now and runs those recipients' turns. */
  private async sendSome(bot: BotRecord, b: BroadcastRecord): Promise<boolean> {
    const now = this.clock.now();
    const claimed: ClaimedRecipient[] = [];
    for (const channel of CHANNELS) {
      const room = this.room(b.id, channel, bot.settings.broadcasts?.messagesPerSecond ?? DEFAULT_RATES[channel], now);
      if (room < 1) continue;
      const got = await this.store.broadcasts.claimRecipients(b.id, b.run, channel, now, now + this.options.claimMs, Math.min(room, BATCH));
      this.spend(b.id, channel, got.length);
      claimed.push(...got);
    }
    const queue = [...claimed];
    const usage = { messages: 0, replies: 0, notifications: 0, apiCalls: 0, aiTokens: 0 };
    const worker = async () => {
      for (let r = queue.shift(); r && !this.stopped; r = queue.shift()) {
        const outcome = await this.reach(bot, b, r);
        if (outcome.kind !== 'sent') continue;
        usage.notifications++;
        usage.apiCalls += outcome.apiCalls;
        usage.aiTokens += outcome.aiTokens;
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    // each recipient reached is a notification (api.md section 13), counted once per batch
    if (usage.notifications > 0) await this.store.accounts.addUsage(bot.accountId, this.clock.iso(now).slice(0, 7), usage);
    return claimed.length > 0;
  }

  private async reach(bot: BotRecord, b: BroadcastRecord, r: ClaimedRecipient) {
    const outcome = await this.conversations.broadcast(bot, {
      ...r,
      behaviour: b.spec.Behaviour,
      message: b.spec.Message ?? null,
      variables: b.spec.Variables,
      template: b.spec.Template,
      messengerTag: bot.settings.broadcasts?.messengerTag ?? null,
    });
    if (outcome.kind === 'skipped' || outcome.kind === 'failed') await this.store.broadcasts.markUnsent(r, outcome.kind, outcome.reason);
    return outcome;
  }

  /** The run is over: the next one (chosen when it started) is scheduled, or the broadcast is done. */
  private async finishRun(bot: BotRecord, b: BroadcastRecord): Promise<void> {
    const now = this.clock.now();
    const [repeat, lead] = [b.spec.Repeat, b.spec.UserTimeZone ? USER_ZONE_LEAD_MS : 0];
    let next = repeat ? b.nextRunAt : null;
    // a run started by an older version still holds its own time there (the next was chosen at the end)
    if (repeat && next !== null && next + lead <= runTime(b.at, repeat.Every, b.run, b.spec.AtOffsetMinutes)) {
      next = nextOccurrence(b.at, repeat.Every, b.spec.AtOffsetMinutes, now + lead + REPEAT_MIN_GAP_MS[repeat.Every]) - lead;
    }
    const until = repeat?.Until;
    const again = next !== null && (until === undefined || next + lead <= until);
    const change = again ? { status: 'scheduled' as const, nextRunAt: next } : { status: 'done' as const, nextRunAt: null };
    if (await this.store.broadcasts.update(b.id, this.options.node, change, now)) await this.notify(bot, { ...b, ...change });
    for (const channel of CHANNELS) this.buckets.delete(`${b.id}\u0000${channel}`);
  }

  private async fail(bot: BotRecord, b: BroadcastRecord, error: string): Promise<boolean> {
    const change = { status: 'failed' as const, nextRunAt: null, error };
    if (await this.store.broadcasts.update(b.id, this.options.node, change, this.clock.now())) await this.notify(bot, { ...b, ...change });
    return false;
  }

  private async notify(bot: BotRecord, b: BroadcastRecord): Promise<void> {
    const body = noticeBody(bot, b, await this.store.broadcasts.counts(b.id, Math.max(1, b.run)));
    if (body) await this.store.broadcasts.setNotice(b.id, body, this.clock.now());
  }

  /** Whole recipients the channel's bucket holds now (it refills at `rate` a second, holding one second's worth). */
  private room(id: string, channel: string, rate: number, now: number): number {
    const key = `${id}\u0000${channel}`;
    const bucket = this.buckets.get(key) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    return Math.floor(bucket.tokens);
  }

  private spend(id: string, channel: string, n: number): void {
    const bucket = this.buckets.get(`${id}\u0000${channel}`);
    if (bucket) bucket.tokens -= n;
  }
}

/** Delivers the `broadcast` events that are due, each claimed first so that one node sends it. */
async function deliverNotices(store: BroadcastStorage, webhook: DeliveryTarget, clock: Clock, claimMs: number): Promise<void> {
  const now = clock.now();
  for (const notice of await store.broadcasts.dueNotices(now, 20)) {
    void deliverNotice(store, webhook, notice, now, claimMs, retryDelay);
  }
}
