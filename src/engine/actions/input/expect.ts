// Whether a user text fits an input's `expect` (bot-format.md "input expect"). Texts are trimmed first.

import { isRegexSpec, matchesAlternatives, regexFinds } from '../../matching.js';
import { isNumberText } from '../../numbers.js';

export const EXPECT_KINDS = ['any', 'number', 'email', 'phone', 'url', 'date'] as const;

// Every check runs in time linear in the text (issue 11: `http://` + `a.` × 2500 used to hold the
// event loop for 20 s). The patterns below have no two neighbouring repeats that can take the same
// character, so a backtracking engine never has more than one way to split a text; where the old
// patterns had such overlaps (a dot inside a run that may also contain dots), the text is cut by
// hand instead. Accept/reject answers are exactly those of the old patterns (expect.test.ts).
const WHITESPACE = /\s/;
/** one `@` between two runs without whitespace or `@` */
const EMAIL_PARTS = /^[^\s@]+@([^\s@]+)$/;
/** digits with the usual separators, an optional leading +; 6 to 15 digits (E.164 allows 15) */
const PHONE = /^\+?[\d\s().\-/]+$/;
const SCHEME = /^https?:\/\//i;
const HOST_LABEL = /^[a-z0-9-]+$/i;
const TOP_LEVEL_LABEL = /^[a-z]{2,}$/i;
const PORT_THEN_REST = /^:\d+(?:[/?#]|$)/;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
/** day first, as written outside the US: 22/11/2026, 22.11.2026, 22-11-2026 */
const DAY_FIRST_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

export function fitsExpect(expect: unknown, rawText: string): boolean {
  const text = rawText.trim();
  if (text === '') return false; // no kind accepts an empty answer
  if (isRegexSpec(expect)) return regexFinds(expect.regex, text);
  if (expect === undefined || expect === null) return true; // absent: any text
  if (typeof expect !== 'string') return false;
  switch (expect) {
    case 'any':
      return true;
    case 'number':
      return isNumberText(text);
    case 'email':
      return isEmail(text);
    case 'phone':
      return isPhone(text);
    case 'url':
      return isUrlWithScheme(text) || isBareUrl(text);
    case 'date':
      return isDate(text);
    default:
      return matchesAlternatives(expect, text);
  }
}

/** Was /^[^\s@]+@[^\s@]+\.[^\s@]+$/: the domain holds a dot with something on either side. */
function isEmail(text: string): boolean {
  const domain = EMAIL_PARTS.exec(text)?.[1];
  return domain?.slice(1, -1).includes('.') === true;
}

/**
 * Was /^https?:\/\/[^\s/?#]+\.[^\s/?#]+[^\s]*$/i: after the scheme, no whitespace, and the host
 * (up to the first / ? or #) holds a dot with something on either side.
 */
function isUrlWithScheme(text: string): boolean {
  const scheme = SCHEME.exec(text);
  if (!scheme) return false;
  const rest = text.slice(scheme[0].length);
  if (WHITESPACE.test(rest)) return false;
  const host = rest.slice(0, firstIndexOf(rest, '/?#'));
  return host.slice(1, -1).includes('.');
}

/**
 * Was /^([a-z0-9-]+\.)+[a-z]{2,}(:\d+)?([/?#][^\s]*)?$/i: dotted labels ending in a letters-only
 * label, then an optional port, then an optional path, query or fragment without whitespace.
 */
function isBareUrl(text: string): boolean {
  const hostEnd = firstIndexOf(text, ':/?#');
  const labels = text.slice(0, hostEnd).split('.');
  if (labels.length < 2 || !TOP_LEVEL_LABEL.test(labels[labels.length - 1])) return false;
  if (!labels.every((label) => HOST_LABEL.test(label))) return false;
  const rest = text.slice(hostEnd);
  if (rest.startsWith(':') && !PORT_THEN_REST.test(rest)) return false;
  return !WHITESPACE.test(rest);
}

/** Index of the first character of `text` that is one of `chars`, or the text's length. */
function firstIndexOf(text: string, chars: string): number {
  for (let i = 0; i < text.length; i++) if (chars.includes(text[i])) return i;
  return text.length;
}

function isPhone(text: string): boolean {
  if (!PHONE.test(text)) return false;
  const digits = text.replace(/\D/g, '').length;
  return digits >= 6 && digits <= 15;
}

function isDate(text: string): boolean {
  const iso = ISO_DATE.exec(text);
  if (iso) return validDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dayFirst = DAY_FIRST_DATE.exec(text);
  if (dayFirst) return validDay(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]));
  return false;
}

/** Calendar arithmetic only: no clock, the engine stays pure. */
function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}
