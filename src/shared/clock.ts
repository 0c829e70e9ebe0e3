// Time comes from one injectable clock so tests can move it (token expiry, ban expiry, shares).

export interface Clock {
  now(): number;
  /** ISO 8601 with an explicit offset, as the wire format wants: 2026-11-22T10:15:03.123+00:00 */
  iso(ms?: number): string;
  /** YYYY-MM-DD in UTC */
  date(ms?: number): string;
}

export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

export function clockFrom(now: () => number): Clock {
  return {
    now,
    iso: (ms) => isoWithOffset(ms ?? now()),
    date: (ms) => new Date(ms ?? now()).toISOString().slice(0, 10),
  };
}

export const systemClock: Clock = clockFrom(() => Date.now());
