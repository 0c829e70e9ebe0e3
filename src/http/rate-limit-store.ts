// Fixed one-minute windows counted in memory, per node. Two users: @fastify/rate-limit (the
// per-principal limit of api.md, every route sharing one counter per key) and the failure
// throttles of auth-throttle.ts. With N nodes a key effectively gets N times its allowance; see
// docs/security.md.
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** Keys kept at most; beyond, expired windows and then the oldest ones are dropped. */
const MAX_KEYS = 100_000;

interface Window {
  count: number;
  startedAt: number;
}

export class WindowCounters {
  // Map order = order in which the current windows started: the oldest come first.
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one more for `key`; returns the count in the current window and ms until it ends. */
  incr(key: string, windowMs: number): { current: number; ttl: number } {
    const window = this.current(key, windowMs, true)!;
    window.count += 1;
    return { current: window.count, ttl: window.startedAt + windowMs - this.now() };
  }

  /** The count in the current window without counting (0 and the full window when none). */
  peek(key: string, windowMs: number): { current: number; ttl: number } {
    const window = this.current(key, windowMs, false);
    return window ? { current: window.count, ttl: window.startedAt + windowMs - this.now() } : { current: 0, ttl: windowMs };
  }

  private current(key: string, windowMs: number, create: boolean): Window | undefined {
    const now = this.now();
    let window = this.windows.get(key);
    if (window && window.startedAt + windowMs > now) return window;
    this.windows.delete(key);
    if (!create) return undefined;
    if (this.windows.size >= MAX_KEYS) this.evict(now, windowMs);
    window = { count: 0, startedAt: now };
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
  private readonly counters = new WindowCounters();

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    callback(null, this.counters.incr(key, timeWindow));
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}
