// Fixed one-minute windows counted in memory. Two users: @fastify/rate-limit (the per-principal
// limit of api.md, every route sharing one counter per key) and the failure throttles of
// auth-throttle.ts.
//
// Several nodes on one PostgreSQL share their counts without a round trip per request: a node
// counts on its own and reports to the others (window-reporter.ts) each time it has counted
// `reportStep(max)` requests of a key that it has not reported yet, waiting for the report's
// answer, which carries every node's reports: its count is then the cluster's count plus what it
// counted since. So no node holds more than step - 1 counted requests of a key that are not in the
// table (unless the database fails), and each node reads the table at its next report. What that
// allows past the limit, per window, with N nodes (docs/operations.md):
// - counted before deciding (the rate limits): at most limit + (N - 1) × (step - 1);
// - checked before and counted after (the failure throttles): at most limit + N × step - 1, for a
//   client that waits for its answers (attempts in flight at once pass the check together, as on
//   one node).
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { WindowReporter } from './window-reporter.js';

/** Keys kept at most; beyond, expired windows and then the oldest ones are dropped. */
const MAX_KEYS = 100_000;

/** Requests of a key a node counts before it reports them: a twentieth of the allowance, at least 1. */
export const reportStep = (max: number) => Math.max(1, Math.floor(max / 20));

export interface WindowCount {
  current: number;
  /** ms until the window ends */
  ttl: number;
}

interface Window {
  startedAt: number;
  /** the other nodes' count, as of this node's last report */
  others: number;
  /** counted here */
  own: number;
  /** of `own`, reported and answered */
  reported: number;
  /** the report under way; true when the database answered */
  report: Promise<boolean> | null;
}

export class WindowCounters {
  // Map order = order in which the current windows started: the oldest come first.
  private readonly windows = new Map<string, Window>();

  /** `shared` reports to the other nodes under keys that begin with `namespace` (the table is one for every counter). */
  constructor(
    private readonly shared: { reporter: WindowReporter; namespace: string } | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one more for `key`; resolves at once unless this node has to report (see above). The
   * count is this request's place: requests counted here after it do not count against it.
   */
  incr(key: string, windowMs: number, max: number): WindowCount | Promise<WindowCount> {
    const window = this.current(key, windowMs, true)!;
    const place = ++window.own;
    const step = reportStep(max);
    if (!this.shared || window.own - window.reported < step) return this.countOf(window, place, windowMs);
    return this.settle(key, window, windowMs, step).then(() => this.countOf(window, place, windowMs));
  }

  /** The count in the current window without counting (0 and the full window when none). */
  peek(key: string, windowMs: number): WindowCount {
    const window = this.current(key, windowMs, false);
    return window ? this.countOf(window, window.own, windowMs) : { current: 0, ttl: windowMs };
  }

  private countOf(window: Window, place: number, windowMs: number): WindowCount {
    return { current: window.others + place, ttl: window.startedAt + windowMs - this.now() };
  }

  /** Reports until fewer than `step` requests are unknown to the other nodes (or the database fails). */
  private async settle(key: string, window: Window, windowMs: number, step: number): Promise<void> {
    while (window.own - window.reported >= step) {
      window.report ??= this.send(key, window, windowMs);
      if (!(await window.report)) return;
    }
  }

  private async send(key: string, window: Window, windowMs: number): Promise<boolean> {
    const delta = window.own - window.reported;
    const total = await this.shared!.reporter.report(`${this.shared!.namespace}${key}`, delta, windowMs);
    window.report = null;
    if (!total) return false; // told to nobody: reported with the next step
    window.reported += delta;
    // The window is the cluster's: started by whichever node reported first.
    window.others = Math.max(0, total.count - window.reported);
    window.startedAt = total.startedAt;
    return true;
  }

  private current(key: string, windowMs: number, create: boolean): Window | undefined {
    const now = this.now();
    let window = this.windows.get(key);
    if (window && window.startedAt + windowMs > now) return window;
    this.windows.delete(key);
    if (!create) return undefined;
    if (this.windows.size >= MAX_KEYS) this.evict(now, windowMs);
    window = { startedAt: now, others: 0, own: 0, reported: 0, report: null };
    this.windows.set(key, window);
    return window;
  }

  private evict(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) {
      if (window.startedAt + windowMs > now && this.windows.size < MAX_KEYS) break;
      this.windows.delete(key);
    }
  }
}

/**
 * @fastify/rate-limit's default store gives every route its own counters (each route gets a
 * `child` store), so a principal could make the full allowance on every route; this store shares
 * one counter per key across all routes (a route with a `groupId`, the sign-in, gets its own key).
 */
export class SharedWindowStore implements FastifyRateLimitStore {
  constructor(private readonly counters: WindowCounters) {}

  incr(key: string, callback: (error: Error | null, result?: WindowCount) => void, timeWindow: number, max: number): void {
    const counted = this.counters.incr(key, timeWindow, max);
    if (counted instanceof Promise) void counted.then((result) => callback(null, result));
    else callback(null, counted);
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}
