// Author regexes run on a linear-time engine (issue 11): no pattern and no text can freeze a turn.
// The calls that used to backtrack for seconds or hours run on a worker thread, so that a freeze
// makes the test time out (fail) instead of freezing the runner's own timer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offThread } from '../../test/support/off-thread.js';
import { authorRegex, matchesPattern, regexFinds, regexProblem } from './matching.js';

const MATCHING = new URL('./matching.ts', import.meta.url);
// Generous: a backtracking pattern takes hours on these texts; a loaded machine takes seconds to start the threads.
const PROMPTLY = { timeout: 60_000 };

test('^(a+)+$ against 31 a and ! answers false promptly (no catastrophic backtracking)', PROMPTLY, async (t) => {
  assert.equal(await offThread(MATCHING, 'regexFinds', ['^(a+)+$', `${'a'.repeat(31)}!`], t.signal), false);
});

test('nested quantifiers over a 16 KB text (the longest chat text) answer promptly', PROMPTLY, async (t) => {
  const long = 'x'.repeat(16_384);
  assert.equal(await offThread(MATCHING, 'regexFinds', ['(x+x+)+y', long], t.signal), false);
  assert.equal(await offThread(MATCHING, 'regexFinds', ['^(\\w+\\s?)*$', `${'word '.repeat(3_000)}!`], t.signal), false);
  assert.equal(await offThread(MATCHING, 'regexFinds', ['(a|aa)+$', `${'a'.repeat(16_383)}b`], t.signal), false);
});

test('the usual JavaScript-flavoured patterns keep their meaning: case-insensitive search', () => {
  assert.equal(regexFinds('^#?\\d{6}$', '#123456'), true);
  assert.equal(regexFinds('^#?\\d{6}$', '#12345'), false);
  assert.equal(regexFinds('order \\d+', 'My ORDER 42 please'), true);
  assert.equal(regexFinds('^abc$', 'xxABCxx'), false);
  assert.equal(regexFinds('\\bcat\\b', 'a Cat here'), true);
  assert.equal(regexFinds('\\bcat\\b', 'concatenate'), false);
  assert.equal(regexFinds('https?:\\/\\/\\S+', 'see http://example.org'), true); // escaped slashes
  assert.equal(regexFinds('caf\\u00e9', 'CAFÉ'), true); // \u escapes and non-ASCII case folding
  assert.equal(regexFinds('(?<code>[A-Z]{2})-\\d+', 'ref ab-12'), true); // named groups
  assert.equal(regexFinds('colou?r|grey', 'GREY'), true);
  assert.equal(regexFinds('^\\s*yes\\s*$', 'yes'), true);
  assert.equal(regexFinds('x{2,3}', 'axxb'), true);
  assert.equal(regexFinds('[^a-z]', 'abc'), false);
});

test('a pattern that cannot run never matches and never throws (an old stored bot may hold one)', () => {
  assert.equal(regexFinds('(', '('), false);
  assert.equal(regexFinds('(a)\\1', 'aa'), false); // backreference
  assert.equal(regexFinds('a(?=b)', 'ab'), false); // lookahead
  assert.equal(regexFinds('(?<!x)b', 'ab'), false); // lookbehind
  assert.equal(authorRegex('(a)\\1'), null);
  assert.equal(matchesPattern({ regex: '(?!no)' }, 'yes'), false);
  assert.equal(matchesPattern({ regex: '^YES$' }, ' yes '), true); // the text is trimmed first
});

test('regexProblem names the feature that cannot run in linear time', () => {
  const linear = (feature: string) => `regular expression uses a feature that cannot run in linear time (${feature})`;
  assert.equal(regexProblem('(a)\\1'), linear('backreference'));
  assert.equal(regexProblem('(?<w>a)\\k<w>'), linear('backreference'));
  assert.equal(regexProblem('a(?=b)'), linear('lookahead'));
  assert.equal(regexProblem('a(?!b)'), linear('lookahead'));
  assert.equal(regexProblem('(?<=a)b'), linear('lookbehind'));
  assert.equal(regexProblem('(?<!a)b'), linear('lookbehind'));
  // inside a character class these are plain characters, and an escaped parenthesis is no group
  assert.equal(regexProblem('[(?=]x'), null);
  assert.equal(regexProblem('\\(?=x'), null);
  assert.equal(regexProblem('^(a+)+$'), null);
});

test('regexProblem reports syntax errors and oversized patterns; null for a good pattern', () => {
  assert.equal(regexProblem('^#?\\d{6}$'), null);
  assert.equal(regexProblem('('), 'invalid regular expression: missing closing ): `(`');
  assert.equal(regexProblem('[a-'), 'invalid regular expression: missing closing ]: `[a-`');
  assert.equal(regexProblem('*6'), 'invalid regular expression: missing argument to repetition operator: `*`');
  assert.equal(regexProblem('a{1001}'), 'invalid regular expression: invalid repeat count: `{1001}`');
  assert.equal(regexProblem('[\\s\\S]{1000}[\\s\\S]{1000}[\\s\\S]{1000}'), 'regular expression is too large (3002 steps; at most 2000): use smaller repeat counts or split it');
  assert.equal(regexProblem('\\w{1000}'), null);
});
