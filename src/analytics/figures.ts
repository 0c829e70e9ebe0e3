// The figures derived from rows rather than counted by the database (docs/analytics.md "Waiting,
// first response and CSAT"): percentiles of waits and first responses, and CSAT's distribution
// and average. Pure, so that each rule is tested by the figures it gives.
import { DAY_MS, durationsOf } from '../shared/durations.js';
import type { CsatCount, CsatFigures, WaitFigures, WaitRow } from './model.js';

/** Waits read for one period at most: a bound on memory however busy a bot is. */
export const MAX_WAITS = 100_000;

/** Figures for all the waits, and for each day (by the day the wait began). */
export function waitFigures(rows: WaitRow[], firstDay: number, lastDay: number): { total: WaitFigures; days: WaitFigures[] } {
  const figures = (list: WaitRow[]): WaitFigures => ({
    Requests: list.length,
    Waiting: durationsOf(list.filter((w) => w.takenAt !== null).map((w) => w.takenAt! - w.requestedAt)),
    FirstResponse: durationsOf(list.filter((w) => w.answeredAt !== null).map((w) => w.answeredAt! - w.requestedAt)),
  });
  const byDay: WaitRow[][] = Array.from({ length: lastDay - firstDay + 1 }, () => []);
  for (const row of rows) byDay[Math.floor(row.requestedAt / DAY_MS) - firstDay]?.push(row);
  return { total: figures(rows), days: byDay.map(figures) };
}

export function csatFigures(rows: CsatCount[]): CsatFigures {
  const distribution = [0, 0, 0, 0, 0];
  for (const row of rows) if (row.rating >= 1 && row.rating <= 5) distribution[row.rating - 1] += row.count;
  const answers = distribution.reduce((a, b) => a + b, 0);
  const sum = distribution.reduce((a, n, i) => a + n * (i + 1), 0);
  return { Answers: answers, Average: answers === 0 ? null : Math.round((sum / answers) * 100) / 100, Distribution: distribution };
}

/** CSAT per day of the period (by the day of the answer). */
export function csatDays(rows: CsatCount[], firstDay: number, lastDay: number): CsatFigures[] {
  const byDay: CsatCount[][] = Array.from({ length: lastDay - firstDay + 1 }, () => []);
  for (const row of rows) byDay[row.day - firstDay]?.push(row);
  return byDay.map(csatFigures);
}
