// When a broadcast runs (broadcasts.md "Status"): `At` with its offset, repeated every day, week
// or month until `Until`, and with `UserTimeZone` at At's clock time in each user's own zone.

const DAY_MS = 86_400_000;
/** The widest gap between two clocks on Earth (UTC-12 to UTC+14): a run by users' zones starts this early. */
export const USER_ZONE_LEAD_MS = 26 * 3_600_000;
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO time with an explicit offset: its instant and the offset in minutes, or null. */
export function parseAt(text: string): { ms: number; offsetMinutes: number } | null {
  const m = ISO_WITH_OFFSET.exec(text);
  if (!m) return null;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return null;
  const offset = m[7] === 'Z' ? 0 : (m[7][0] === '-' ? -1 : 1) * (Number(m[7].slice(1, 3)) * 60 + Number(m[7].slice(4, 6)));
  return { ms, offsetMinutes: offset };
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
