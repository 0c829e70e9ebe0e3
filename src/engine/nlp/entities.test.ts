// Entities (understanding.md): synonyms on normalized words, regexes on RE2, first occurrence wins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileNlp } from './compiled-nlp.js';
import { findEntities, findEntity } from './entities.js';

const nlp = compileNlp({
  entities: [
    { name: 'size', values: { small: ['s', 'little'], large: ['l', 'big', 'extra large'], 'extra small': ['xs'] } },
    { name: 'order', regex: '\\b\\d{6}\\b' },
    { name: 'code', regex: 'AB-\\d+' },
    { name: 'any_case', regex: '(?i)ab-\\d+' },
  ],
})!;

test('synonyms: accents and case ignored, longest spelling at the earliest position, canonical value stored', () => {
  assert.deepEqual(findEntities(nlp, 'An EXTRA-Large one, or a little one'), [{ name: 'size', value: 'large', text: 'EXTRA-Large' }]);
  assert.deepEqual(findEntities(nlp, 'the little one... no, big'), [{ name: 'size', value: 'small', text: 'little' }]);
  assert.deepEqual(findEntities(nlp, 'Extra small please'), [{ name: 'size', value: 'extra small', text: 'Extra small' }]);
  assert.deepEqual(findEntities(nlp, 'bigger is better'), [], 'whole words only');
});

test('regexes: the first match; case-sensitive unless (?i)', () => {
  assert.deepEqual(findEntities(nlp, 'orders 123456 and 654321, code ab-1'), [
    { name: 'order', value: '123456', text: '123456' },
    { name: 'any_case', value: 'ab-1', text: 'ab-1' },
  ]);
  assert.deepEqual(
    findEntities(nlp, 'AB-22').map((e) => e.name),
    ['code', 'any_case'],
  );
});

test('a pattern that cannot run never matches and never throws; a hostile text stays linear', () => {
  const broken = compileNlp({ entities: [{ name: 'x', regex: '(a+)\\1' }] })!;
  assert.deepEqual(findEntities(broken, 'aaaa'), []);
  const started = Date.now();
  findEntities(nlp, `${'a '.repeat(20_000)}!`);
  assert.ok(Date.now() - started < 1000);
});

test('synonyms: the earliest position wins over a longer spelling later; a spelling named twice keeps its first value', () => {
  const shop = compileNlp({
    entities: [
      { name: 'size', values: { medium: ['m', 'extra'], large: ['extra large', 'big'], huge: ['big', 'extra large size'] } },
      { name: 'colour', values: { red: ['rouge'] } },
    ],
  })!;
  assert.deepEqual(findEntities(shop, 'rouge, and extra big'), [
    { name: 'size', value: 'medium', text: 'extra' },
    { name: 'colour', value: 'red', text: 'rouge' },
  ]);
  assert.deepEqual(findEntities(shop, 'big, no: extra large size'), [{ name: 'size', value: 'large', text: 'big' }]);
  assert.deepEqual(findEntities(shop, 'Extra  Large Size!'), [{ name: 'size', value: 'huge', text: 'Extra  Large Size' }]);
  assert.deepEqual(
    findEntities(shop, 'extra large sizes'),
    [{ name: 'size', value: 'large', text: 'extra large' }],
    'a longer path that does not end on a spelling falls back to the last one that did',
  );
  assert.deepEqual(findEntities(shop, 'Medium'), [{ name: 'size', value: 'medium', text: 'Medium' }], 'the canonical value is a spelling');
  assert.deepEqual(findEntities(shop, 'hugely sized'), [], 'whole words only');
});

test('findEntity (input expecting an entity) uses the same spellings', () => {
  const size = compileNlp({ entities: [{ name: 'size', values: { large: ['xl', 'extra large'] } }] })!.entities[0];
  assert.deepEqual(findEntity(size, 'an XL please'), { name: 'size', value: 'large', text: 'XL' });
  assert.equal(findEntity(size, 'extra please'), null);
});
