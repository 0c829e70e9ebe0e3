// Text matching shared by triggers, variableSwitch and input: alternatives lists ("yes|no") and
// author-written regular expressions. Every comparison ignores case (bot-format.md).

import type { RE2JS } from 're2js';
import { compileAuthorRegex } from './author-regex.js';

// Bot authors write regexes once and they are tested on every turn: compile each pattern once.
// Bounded so that templated patterns (different per conversation) cannot grow memory forever.
const MAX_CACHED_PATTERNS = 1000;
const regexCache = new Map<string, RE2JS | null>();

/**
 * Case-insensitive, linear-time regex for an author's pattern (author-regex.ts), or null when the
 * engine cannot run it: an invalid pattern, a backreference or lookaround, or one too large.
 */
export function authorRegex(pattern: string): RE2JS | null {
  const cached = regexCache.get(pattern);
  if (cached !== undefined) return cached;
  // a pattern that cannot run never matches; it must not crash the turn (an old stored bot may
  // hold one that JavaScript accepted)
  const compiled = compileAuthorRegex(pattern).regex;
  if (regexCache.size >= MAX_CACHED_PATTERNS) regexCache.clear();
  regexCache.set(pattern, compiled);
  return compiled;
}

/** Why the engine cannot run this pattern (for the save-time check), or null when it can. */
export function regexProblem(pattern: string): string | null {
  return compileAuthorRegex(pattern).problem;
}

/** Regex search (not a whole match), case-insensitive; patterns that cannot run never match. */
export function regexFinds(pattern: string, text: string): boolean {
  return authorRegex(pattern)?.test(text) ?? false;
}

/** The pieces of an alternatives list `a|b|c`, trimmed and lower-cased, empty pieces dropped. */
export function alternativesOf(list: string): string[] {
  return list
    .split('|')
    .map((piece) => piece.trim().toLowerCase())
    .filter((piece) => piece !== '');
}

/** Whole-text, case-insensitive match against any alternative of `a|b|c`. */
export function matchesAlternatives(list: string, text: string): boolean {
  const wanted = text.trim().toLowerCase();
  return alternativesOf(list).includes(wanted);
}

/** A trigger's or an input's `match` field: an alternatives string or `{ regex }`. */
export function matchesPattern(match: unknown, text: string): boolean {
  if (typeof match === 'string') return matchesAlternatives(match, text);
  if (isRegexSpec(match)) return regexFinds(match.regex, text.trim());
  return false;
}

export function isRegexSpec(value: unknown): value is { regex: string } {
  return typeof value === 'object' && value !== null && typeof (value as { regex?: unknown }).regex === 'string';
}
