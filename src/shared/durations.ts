// How long things took, summed up as a person reads it: how many, the median and the 90th
// percentile in whole seconds. Analytics' waiting figures and the widget's expected reply time
// (channels/web/visitors.ts) both say it this way. DAY_MS is the one day every folder counts in.

/** A UTC day: analytics counts per day since the epoch (`created_at / DAY_MS` in SQL too). */
export const DAY_MS = 86_400_000;

/**
 * The p-th percentile by nearest rank (the smallest value with at least p% of the values at or
 * below it), in whole seconds; null without values. Nearest rank gives a value that happened,
 * which reads better than an interpolated one for a handful of waits.
 */
export function percentileSeconds(sortedMs: readonly number[], p: number): number | null {
  if (sortedMs.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sortedMs.length));
  return Math.round(sortedMs[rank - 1] / 1000);
}

export interface Durations {
  /** how many measured */
  Count: number;
  P50Seconds: number | null;
  P90Seconds: number | null;
}

export const durationsOf = (ms: number[]): Durations => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { Count: sorted.length, P50Seconds: percentileSeconds(sorted, 50), P90Seconds: percentileSeconds(sorted, 90) };
};
