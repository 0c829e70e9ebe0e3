// How a node tells the others (PostgreSQL) what it counted for its rate limits, and learns their
// counts: reports go to the rate_windows table one statement at a time, each carrying every key
// that has something to report by then, so a flood of keys costs a statement per round trip and
// not one per key. A database that does not answer makes reports fail for a second (the caller
// then decides on its own counts) instead of piling up.
import type { RateWindowTable, WindowReport, WindowTotal } from './rate-window-port.js';

/** Keys in one statement at most (some 100 bytes each); the rest go in the next. */
const MAX_KEYS_PER_REPORT = 1000;
/** How long reports are not tried after one failed. */
const RETRY_AFTER_FAILURE_MS = 1000;
/** How often ended windows are deleted (by the first report after that long). */
const PRUNE_EVERY_MS = 60_000;

interface Queued {
  report: WindowReport;
  waiters: Array<(total: WindowTotal | null) => void>;
}

export class WindowReporter {
  private readonly queued = new Map<string, Queued>();
  private busy = false;
  private failedAt = -Infinity;
  private prunedAt: number;

  constructor(
    private readonly table: RateWindowTable,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.prunedAt = now();
  }

  /** Adds `delta` to the cluster's count of `key`; the count after it, or null if the database failed. */
  report(key: string, delta: number, windowMs: number): Promise<WindowTotal | null> {
    if (this.now() - this.failedAt < RETRY_AFTER_FAILURE_MS) return Promise.resolve(null);
    return new Promise((resolve) => {
      const queued = this.queued.get(key);
      if (queued) {
        queued.report.delta += delta;
        queued.waiters.push(resolve);
      } else {
        this.queued.set(key, { report: { key, delta, windowMs }, waiters: [resolve] });
      }
      this.send();
    });
  }

  private send(): void {
    if (this.busy || this.queued.size === 0) return;
    const batch: Queued[] = [];
    for (const [key, queued] of this.queued) {
      if (batch.length === MAX_KEYS_PER_REPORT) break;
      batch.push(queued);
      this.queued.delete(key);
    }
    this.busy = true;
    const now = this.now();
    this.table
      .report(
        batch.map((q) => q.report),
        now,
      )
      .then(
        (totals) => batch.forEach((q) => q.waiters.forEach((resolve) => resolve(totals.get(q.report.key) ?? null))),
        (error) => {
          this.failedAt = this.now();
          this.onError(error);
          batch.forEach((q) => q.waiters.forEach((resolve) => resolve(null)));
        },
      )
      .then(() => this.pruneWhenDue(now))
      .finally(() => {
        this.busy = false;
        this.send();
      });
  }

  private async pruneWhenDue(now: number): Promise<void> {
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.table.prune(now).catch(this.onError);
  }
}
