// The one unit of each figure of the page (issue 37: "one unit per figure, charts and headlines
// alike"). A headline tile, its change from the previous period, the value axis of the chart that
// draws the figure, its tooltips and its spoken summary all say it in the same unit: a count in
// its own noun ("9 conversations"), a share in "%", a time in one of s, min or h, a rating "out
// of 5". Times get their unit once per period, from the largest time the page shows, so that the
// waiting tile, the first-response tile and the chart of both never mix "45 s" with "2 min".
import type { BotAnalytics } from './types';

export type TimeUnitName = 's' | 'min' | 'h';

export interface TimeUnit {
  name: TimeUnitName;
  seconds: number;
}

const TIME_UNITS: Record<TimeUnitName, TimeUnit> = { s: { name: 's', seconds: 1 }, min: { name: 'min', seconds: 60 }, h: { name: 'h', seconds: 3600 } };

/** The unit that says the largest of `seconds` in a short number: under 90 s in s, under 90 min in min, else h. */
export function timeUnitFor(seconds: (number | null)[]): TimeUnit {
  const largest = Math.max(0, ...seconds.filter((s): s is number => s !== null));
  if (largest < 90) return TIME_UNITS.s;
  if (largest < 90 * 60) return TIME_UNITS.min;
  return TIME_UNITS.h;
}

/** `seconds` as a number of `unit`, to one decimal (a whole number shows no ".0"). */
export const inTimeUnit = (seconds: number, unit: TimeUnit) => Math.round((seconds / unit.seconds) * 10) / 10;

/** "2 min", "1.5 h", "45 s". */
export const timeIn = (seconds: number, unit: TimeUnit) => `${inTimeUnit(seconds, unit).toLocaleString('en')} ${unit.name}`;

/** A count with its noun: "1 conversation", "9 conversations". */
export interface CountNoun {
  one: string;
  many: string;
}

export const counted = (n: number, noun: CountNoun) => `${n.toLocaleString('en')} ${n === 1 ? noun.one : noun.many}`;

export const CONVERSATIONS: CountNoun = { one: 'conversation', many: 'conversations' };
export const MESSAGES: CountNoun = { one: 'message', many: 'messages' };
export const ANSWERS: CountNoun = { one: 'answer', many: 'answers' };
export const QUESTIONS: CountNoun = { one: 'question', many: 'questions' };

/** A share of 0..1 in %, to one decimal. */
export const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** How the CSAT average is said, on its tile and over its chart. */
export const RATING_UNIT = 'out of 5';

/** The time unit of the waits (both tiles and their chart): from every wait time the page shows for the period. */
export function waitsUnit(d: BotAnalytics): TimeUnit {
  return timeUnitFor([
    ...d.Days.flatMap((x) => [x.WaitP50Seconds, x.WaitP90Seconds, x.FirstResponseP50Seconds, x.FirstResponseP90Seconds]),
    d.Waits.Waiting.P90Seconds,
    d.Waits.FirstResponse.P90Seconds,
    d.Previous.Waits.Waiting.P50Seconds,
    d.Previous.Waits.FirstResponse.P50Seconds,
  ]);
}
