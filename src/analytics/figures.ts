// The figures derived from rows rather than counted by the database (docs/analytics.md "Waiting,
// first response and CSAT"): percentiles of waits and first responses, and CSAT's distribution
// and average. Pure, so that each rule is tested by the figures it gives.
import type { CsatCount, WaitRow } from '../store/analytics.js';
import { DAY_MS } from '../store/analytics.js';
import { durationsOf, type Durations } from '../shared/durations.js';

/** Waits read for one period at most: a bound on memory however busy a bot is. */
export const MAX_WAITS = 100_000;

export interface WaitFigures {
  /** waits for a person that began in the period */
  Requests: number;
  /** request → takeover, for the waits an operator took over */
  Waiting: Durations;
  /** request → the operator's first message, for the waits that got one */
  FirstResponse: Durations;
}

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

export interface CsatFigures {
  Answers: number;
  /** mean rating with two decimals; null without answers */
  Average: number | null;
  /** answers per rating: [ones, twos, threes, fours, fives] */
  Distribution: number[];
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
