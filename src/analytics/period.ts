// The period an analytics request covers: `from` and `to` as YYYY-MM-DD (UTC days, both included),
// by default the last 30 days up to today. Bad or reversed dates and periods over MAX_DAYS are
// refused with INVALID_REQUEST before any query runs.
import { AppError } from '../shared/errors.js';
import { DAY_MS } from '../shared/durations.js';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;

export interface DayPeriod {
  /** first day, in days since the epoch */
  firstDay: number;
  /** last day (included) */
  lastDay: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayOf(raw: string, field: 'from' | 'to'): number {
  const match = DATE.exec(raw);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  // Date.UTC rolls 2026-02-31 over into March: a date that does not print back as itself is refused.
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw) {
    throw new AppError('INVALID_REQUEST', `${field} must be a date as YYYY-MM-DD.`, { Field: field });
  }
  return ms / DAY_MS;
}

export function periodOf(query: { from?: string; to?: string }, now: number): DayPeriod {
  const lastDay = query.to === undefined ? Math.floor(now / DAY_MS) : dayOf(query.to, 'to');
  const firstDay = query.from === undefined ? lastDay - (DEFAULT_DAYS - 1) : dayOf(query.from, 'from');
  if (firstDay > lastDay) throw new AppError('INVALID_REQUEST', 'from must not be after to.', { Field: 'from' });
  if (lastDay - firstDay + 1 > MAX_DAYS) throw new AppError('INVALID_REQUEST', `A period may cover at most ${MAX_DAYS} days.`, { Field: 'from' });
  return { firstDay, lastDay };
}

export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
