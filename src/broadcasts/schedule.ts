// When a broadcast runs (broadcasts.md "Status"): `At` with its offset, repeated every day, week
// or month until `Until`, and with `UserTimeZone` at At's clock time in each user's own zone.

import { DAY_MS } from '../shared/durations.js';

/** The widest gap between two clocks on Earth (UTC-12 to UTC+14): a run by users' zones starts this early. */
export const USER_ZONE_LEAD_MS = 26 * 3_600_000;
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO time with an explicit offset: its instant and the offset in minutes, or null. */
export function parseAt(text: string): { ms: number; offsetMinutes: number } | null {
  const m = ISO_WITH_OFFSET.exec(text);
  if (!m) return null;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return null;
  // Date.parse rolls 30 February over to 2 March and takes 24:00 and +23:59: only real clock
  // times on real dates, at offsets some place on Earth uses (-12:00 to +14:00)
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate() || hour > 23 || minute > 59) return null;
  const offset = m[7] === 'Z' ? 0 : (m[7][0] === '-' ? -1 : 1) * (Number(m[7].slice(1, 3)) * 60 + Number(m[7].slice(4, 6)));
  if (m[7] !== 'Z' && (Number(m[7].slice(4, 6)) > 59 || offset < -12 * 60 || offset > 14 * 60)) return null;
  return { ms, offsetMinutes: offset };
}

/**
 * Half a period: two runs of a repeating broadcast never start closer than this, so a node that
 * comes back after downtime sends one late run, not a burst of the missed ones (docs/broadcasts.md).
 * A month's half is that of the shortest month.
 */
export const REPEAT_MIN_GAP_MS = { day: DAY_MS / 2, week: 3.5 * DAY_MS, month: 14 * DAY_MS } as const;

/** The first run time of the series starting at `at` that is not before `notBefore`. */
export function nextOccurrence(at: number, every: 'day' | 'week' | 'month', offsetMinutes: number, notBefore: number): number {
  if (notBefore <= at) return at;
  if (every !== 'month') {
    const period = every === 'day' ? DAY_MS : 7 * DAY_MS;
    return at + Math.ceil((notBefore - at) / period) * period;
  }
  // the months between the two, give or take one, then stepped to the exact one
  const [from, to] = [new Date(at), new Date(notBefore)];
  let n = Math.max(1, (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth());
  while (n > 1 && runTime(at, every, n - 1, offsetMinutes) >= notBefore) n--;
  while (runTime(at, every, n, offsetMinutes) < notBefore) n++;
  return runTime(at, every, n, offsetMinutes);
}

/** The time of run `n` (1 for the first) of a broadcast first at `at`; months keep the day of the month where it exists. */
export function runTime(at: number, every: 'day' | 'week' | 'month' | null, n: number, offsetMinutes: number): number {
  const k = n - 1;
  if (every === null || k === 0) return at;
  if (every === 'day') return at + k * DAY_MS;
  if (every === 'week') return at + k * 7 * DAY_MS;
  // a month on At's own calendar (its offset), so 31 January 09:00+01:00 is followed by 28/29 February
  const local = new Date(at + offsetMinutes * 60_000);
  const months = local.getUTCMonth() + k;
  const year = local.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const shifted = Date.UTC(year, month, Math.min(local.getUTCDate(), lastDay), local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds());
  return shifted - offsetMinutes * 60_000;
}

/** The instant at which `zone`'s clock shows the clock time `runAt` shows at `offsetMinutes` (same date); null for an unknown zone. */
export function inUserZone(runAt: number, offsetMinutes: number, zone: string): number | null {
  const wall = runAt + offsetMinutes * 60_000;
  const first = zoneOffsetMs(wall, zone);
  if (first === null) return null;
  const guess = wall - first;
  // once more at the guessed instant: right across a daylight-saving change
  const second = zoneOffsetMs(guess, zone);
  return second === null ? guess : wall - second;
}

const formats = new Map<string, Intl.DateTimeFormat | null>();

function zoneOffsetMs(at: number, zone: string): number | null {
  let format = formats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    } catch {
      format = null;
    }
    // bounded: names come from conversations' variables
    if (formats.size < 1000) formats.set(zone, format);
  }
  if (!format) return null;
  const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, Number(x.value)]));
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}
