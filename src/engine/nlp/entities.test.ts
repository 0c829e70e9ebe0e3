// Entities (understanding.md): synonyms on normalized words, regexes on RE2, first occurrence wins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileNlp } from './compiled-nlp.js';
import { findEntities } from './entities.js';

const nlp = compileNlp({
  entities: [
    { name: 'size', values: { small: ['s', 'little'], large: ['l', 'big', 'extra large'], 'extra small': ['xs'] } },
    { name: 'order', regex: '\\b\\d{6}\\b' },
    { name: 'code', regex: 'AB-\\d+' },
    { name: 'any_case', regex: '(?i)ab-\\d+' },
  ],
})!;

test('synonyms: accents and case ignored, longest spelling at the earliest position, canonical value stored', () => {
  assert.deepEqual(findEntities(nlp, 'An EXTRA-Large one, or a little one'), [
    { name: 'size', value: 'large', text: 'EXTRA-Large' },
  ]);
  assert.deepEqual(findEntities(nlp, 'the little one... no, big'), [{ name: 'size', value: 'small', text: 'little' }]);
  assert.deepEqual(findEntities(nlp, 'Extra small please'), [{ name: 'size', value: 'extra small', text: 'Extra small' }]);
  assert.deepEqual(findEntities(nlp, 'bigger is better'), [], 'whole words only');
});

test('regexes: the first match; case-sensitive unless (?i)', () => {
  assert.deepEqual(findEntities(nlp, 'orders 123456 and 654321, code ab-1'), [
    { name: 'order', value: '123456', text: '123456' },
    { name: 'any_case', value: 'ab-1', text: 'ab-1' },
  ]);
  assert.deepEqual(findEntities(nlp, 'AB-22').map((e) => e.name), ['code', 'any_case']);
});

test('a pattern that cannot run never matches and never throws; a hostile text stays linear', () => {
  const broken = compileNlp({ entities: [{ name: 'x', regex: '(a+)\\1' }] })!;
  assert.deepEqual(findEntities(broken, 'aaaa'), []);
  const started = Date.now();
  findEntities(nlp, `${'a '.repeat(20_000)}!`);
  assert.ok(Date.now() - started < 1000);
});
