// Delivers the outbox (api.md section 12, channels.md "Outbound"): at least once, in order per
// conversation and target (delivery-target.ts), with
// exponential backoff (1 s doubling, capped at 10 min, for 24 h) and a 5-minute pause of an
// endpoint after more than 5 consecutive failures. Any number of dispatchers (nodes) may run:
// a row is claimed before each attempt, and a claim that outlives a dead node simply expires.
import type { Metrics } from '../observability/metrics.js';
import type { Clock } from '../shared/clock.js';
import type { OutboxStorage } from './port.js';
import type { AttemptResult, DeliveryTarget } from './delivery-target.js';
import type { DeliveryTargetName, OutboxRow } from './model.js';

export const RETRY_FOR_MS = 24 * 3_600_000;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 10 * 60_000;
const PAUSE_AFTER_FAILURES = 5;
const PAUSE_MS = 5 * 60_000;
const BATCH = 50;
/** attempts under way at once in this process (a hanging endpoint holds its claims up to 10 s) */
const MAX_IN_FLIGHT = 200;

export function retryDelay(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

export interface DispatcherOptions {
  /** a claim outlives a dead node by this much; must exceed one delivery attempt (10 s) */
  claimMs: number;
  pollMs?: number;
  onError?: (error: unknown) => void;
}

export class Dispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: OutboxStorage,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly options: DispatcherOptions,
    /** how rows of each target are delivered (the webhook target is always there) */
    private readonly targets: Partial<Record<DeliveryTargetName, DeliveryTarget>>,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 500);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await Promise.all(this.inFlight);
  }

  /** Runs a pass now (or right after the current one): new outbox rows need not wait for a poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runOnce()
      .then(
        () => undefined,
        (error) => this.options.onError?.(error),
      )
      .finally(() => {
        this.running = null;
        if (this.again && this.timer) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * One pass over what is due: claims it and starts the attempts; returns how many were started.
   * The pass does not wait for them, so a slow or hanging endpoint holds up no other conversation
   * or bot; each attempt that ends wakes the dispatcher again, since the next row of its
   * conversation may now be due (a burst drains at once, not one row per poll).
   */
  async runOnce(): Promise<number> {
    const room = MAX_IN_FLIGHT - this.inFlight.size;
    if (room <= 0) return 0;
    const now = this.clock.now();
    // Broadcast rows a dead node left mid-call are failed, never attempted again (broadcasts.md).
    if (await this.store.outbox.anyInterrupted(now))
      await this.store.transaction(async (tx) => {
        for (const row of await tx.outbox.interruptBroadcasts(now)) await tx.broadcasts.noteDelivery(row.broadcast, row.conversationId, false, 'interrupted');
      });
    // At most one row per conversation is claimable at a time (the oldest pending one), so
    // conversations go side by side while each one's rows go in order.
    const claimed = await this.store.outbox.claimDue(now, now + this.options.claimMs, Math.min(BATCH, room));
    for (const row of claimed) {
      const attempt: Promise<void> = this.attempt(row)
        .catch((error) => this.options.onError?.(error))
        .finally(() => {
          this.inFlight.delete(attempt);
          this.wake();
        });
      this.inFlight.add(attempt);
    }
    return claimed.length;
  }

  private async attempt(row: OutboxRow): Promise<void> {
    const target = this.targets[row.target];
    const result = target ? await target.attempt(row) : { ok: false, statusCode: null, error: `no delivery target ${row.target} on this node`, retry: true };
    const givenUp = await this.finish(row, result);
    await target?.recorded?.(row, result, givenUp);
  }

  /** Records the attempt; returns true when the row is given up (no attempt follows). */
  private async finish(row: OutboxRow, result: AttemptResult): Promise<boolean> {
    const at = this.clock.now();
    const attempts = row.attempts + 1;
    const pauses = row.target === 'webhook';
    if (pauses) this.metrics.webhookDeliveries.inc({ outcome: result.ok ? 'delivered' : 'failed' });
    if (result.ok) {
      await this.store.transaction(async (tx) => {
        await tx.outbox.recordAttempt(row.id, row.claimedUntil, { status: 'delivered', statusCode: result.statusCode, error: null, nextAttemptAt: at, at });
        if (result.holdNextMs) await tx.outbox.holdNext(row, at + result.holdNextMs);
        if (pauses) await tx.outbox.setEndpoint(row.botId, 0, 0);
        if (row.broadcast) await tx.broadcasts.noteDelivery(row.broadcast, row.conversationId, true, null);
      });
      return false;
    }
    const givenUp = at - row.createdAt >= RETRY_FOR_MS || result.retry === false;
    const nextAttemptAt = at + Math.max(retryDelay(attempts), result.retryAfterMs ?? 0);
    await this.store.transaction(async (tx) => {
      await tx.outbox.recordAttempt(row.id, row.claimedUntil, { status: givenUp ? 'failed' : 'pending', statusCode: result.statusCode, error: result.error, nextAttemptAt, at });
      if (givenUp && row.broadcast) await tx.broadcasts.noteDelivery(row.broadcast, row.conversationId, false, result.retry === false ? 'refused' : 'gave_up');
      if (!pauses || result.retry === false) return;
      const endpoint = await tx.outbox.endpoint(row.botId);
      const failures = endpoint.consecutiveFailures + 1;
      await tx.outbox.setEndpoint(row.botId, failures, failures > PAUSE_AFTER_FAILURES ? at + PAUSE_MS : endpoint.pausedUntil);
    });
    return givenUp;
  }
}
