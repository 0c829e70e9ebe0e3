// api.md: rate limits are per token, whatever the route. @fastify/rate-limit's default store gives
// every route its own counters (each route gets a `child` store), so a token could make the full
// allowance on every route; this store shares one counter per key across all routes.
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** Keys kept at most; beyond, expired windows and then the oldest ones are dropped. */
const MAX_KEYS = 100_000;

interface Window {
  count: number;
  startedAt: number;
}

export class PerTokenStore implements FastifyRateLimitStore {
  // Map order = order in which the current windows started: the oldest come first.
  private readonly windows = new Map<string, Window>();

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.startedAt + timeWindow <= now) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_KEYS) this.evict(now, timeWindow);
      window = { count: 0, startedAt: now };
      this.windows.set(key, window);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
  }

  child(): FastifyRateLimitStore {
    return this;
  }

  private evict(now: number, timeWindow: number): void {
    for (const [key, window] of this.windows) {
      if (window.startedAt + timeWindow > now && this.windows.size < MAX_KEYS) break;
      this.windows.delete(key);
    }
  }
}
