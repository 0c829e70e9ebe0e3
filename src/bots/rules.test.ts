// Save-time regex check (bot-format.md "Rules checked on save", issue 11): it uses the engine's own
// compiler, so what is accepted on save is exactly what runs, in linear time, on every turn.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { regexError } from './rules.js';

test('regexError refuses backreferences and lookarounds with the feature named', () => {
  const linear = (feature: string) => `regular expression uses a feature that cannot run in linear time (${feature})`;
  assert.equal(regexError('(a)\\1'), linear('backreference'));
  assert.equal(regexError('^(?=.*\\d)\\w+$'), linear('lookahead'));
  assert.equal(regexError('(?<!no )thanks'), linear('lookbehind'));
});

test('regexError: null for patterns the engine runs, a reason for the others', () => {
  for (const ok of ['^#?\\d{6}$', '^(a+)+$', 'caf\\u00e9', '(?<code>\\d+)', 'https?:\\/\\/\\S+', '[(?=]']) assert.equal(regexError(ok), null, ok);
  assert.equal(regexError('(\\d{6}'), 'invalid regular expression: missing closing ): `(\\d{6}`');
  assert.equal(regexError('[a-'), 'invalid regular expression: missing closing ]: `[a-`');
});
