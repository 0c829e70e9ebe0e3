// Author-written regular expressions (trigger `match: {regex}`, input `expect: {regex}`,
// variableSwitch `matches`) run on RE2, through its pure-JavaScript port re2js: matching time is
// linear in the text whatever the pattern, so neither a designer's pattern nor a visitor's text
// can hold the event loop (issue 11; V8's backtracking engine took seconds to hours on `^(a+)+$`).
// Bot files are JavaScript-flavoured: re2js translates the JavaScript-only spellings first
// (`\u00e9`, `(?<name>…)`, `\cA`, `[^]`, `/`). The save-time check (bots/rules.ts) and the engine
// both call compileAuthorRegex, so what is accepted on save is exactly what runs.

import { RE2JS, RE2JSSyntaxException } from 're2js';

/**
 * Largest compiled program accepted. Linear time is still time: matching costs up to one program
 * step per character, and `[\s\S]{1000}` repeated can build a million steps (minutes on a 16 KB
 * text). 2,000 keeps the worst case under about 0.1 s per 16 KB message and still fits a
 * 300-word alternation (about 1,500 steps).
 */
export const MAX_REGEX_PROGRAM = 2000;

export type CompiledRegex = { regex: RE2JS; problem: null } | { regex: null; problem: string };

/**
 * Case-insensitive regex for an author's pattern, or the reason, in words for the author, why not.
 * Entity patterns are case-sensitive unless they say `(?i)` (understanding.md): `caseSensitive`.
 */
export function compileAuthorRegex(pattern: string, options: { caseSensitive?: boolean } = {}): CompiledRegex {
  const feature = nonLinearFeature(pattern);
  if (feature !== null) return refused(`regular expression uses a feature that cannot run in linear time (${feature})`);
  try {
    const regex = RE2JS.compile(RE2JS.translateRegExp(pattern), options.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    const size = regex.programSize();
    if (size > MAX_REGEX_PROGRAM) {
      return refused(`regular expression is too large (${size} steps; at most ${MAX_REGEX_PROGRAM}): use smaller repeat counts or split it`);
    }
    return { regex, problem: null };
  } catch (err) {
    return refused(`invalid regular expression: ${describe(err)}`);
  }
}

const refused = (problem: string): CompiledRegex => ({ regex: null, problem });

function describe(err: unknown): string {
  if (err instanceof RE2JSSyntaxException) {
    // RE2 quotes the offending piece; the case-insensitive flag shows up in it as a `(?i)` prefix
    // that the author never wrote.
    const piece = err.input?.startsWith('(?i)') ? err.input.slice(4) : err.input;
    return piece ? `${err.error}: \`${piece}\`` : err.error;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * The JavaScript features that need backtracking: backreferences (`\1`, `\k<name>`) and
 * lookarounds. RE2 refuses them too, but in its own words ("invalid escape sequence", "invalid
 * named capture"); naming the feature tells the author what to change. Inside a character class
 * these spellings are plain characters, and an escaped `(` opens no group.
 */
function nonLinearFeature(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && ((next >= '1' && next <= '9') || (next === 'k' && pattern[i + 2] === '<'))) return 'backreference';
      i++; // the escaped character is taken as it is
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith('=') || kind.startsWith('!')) return 'lookahead';
      if (kind === '<=' || kind === '<!') return 'lookbehind';
    }
  }
  return null;
}
