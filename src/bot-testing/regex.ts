// The regexes of test files (`regex` steps, stubs' `match`): JavaScript's syntax, case-insensitive
// unless the pattern starts with `(?-i)`, as testing.md's "unless the regex says otherwise" asks
// (JavaScript has no inline flags).
const KEEP_CASE = '(?-i)';

export const looseRegex = (pattern: string): RegExp => (pattern.startsWith(KEEP_CASE) ? new RegExp(pattern.slice(KEEP_CASE.length)) : new RegExp(pattern, 'i'));
