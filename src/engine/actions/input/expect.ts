// Whether a user text fits an input's `expect` (bot-format.md "input expect"). Texts are trimmed first.

import { isRegexSpec, matchesAlternatives, regexFinds } from '../../matching.js';
import { isNumberText } from '../../numbers.js';

export const EXPECT_KINDS = ['any', 'number', 'email', 'phone', 'url', 'date'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** digits with the usual separators, an optional leading +; 6 to 15 digits (E.164 allows 15) */
const PHONE = /^\+?[\d\s().\-/]+$/;
/** with a scheme, or a bare host name with a dot (www.example.org/path) */
const URL_WITH_SCHEME = /^https?:\/\/[^\s/?#]+\.[^\s/?#]+[^\s]*$/i;
const BARE_URL = /^([a-z0-9-]+\.)+[a-z]{2,}(:\d+)?([/?#][^\s]*)?$/i;
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
      return EMAIL.test(text);
    case 'phone':
      return isPhone(text);
    case 'url':
      return URL_WITH_SCHEME.test(text) || BARE_URL.test(text);
    case 'date':
      return isDate(text);
    default:
      return matchesAlternatives(expect, text);
  }
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
