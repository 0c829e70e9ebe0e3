import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayHoldSurrogates, wellFormed } from './well-formed.js';

test('lone surrogates in strings, keys and arrays become U+FFFD; pairs and other text stay', () => {
  const value = JSON.parse('{"a\\ud800":["x\\udc00",{"y":"\\ud83d\\ude00 ok \\ud83d"}],"n":1,"z":null}');
  assert.deepEqual(wellFormed(value), { 'a\ufffd': ['x\ufffd', { y: '\u{1f600} ok \ufffd' }], n: 1, z: null });
  assert.equal(wellFormed('\udfff'), '\ufffd');
});

test('a body nested far deeper than the call stack is walked', () => {
  const depth = 200_000;
  const value = JSON.parse(`${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}`);
  let inner = wellFormed(value);
  for (let i = 0; i < depth; i++) inner = inner[0];
  assert.equal(inner, '\ufffd');
});

test('a parsed __proto__ member is never assigned through the setter', () => {
  const value = JSON.parse('{"__proto__":{"polluted":"\\ud800"},"b":"\\ud800"}');
  wellFormed(value);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(value.b, '\ufffd');
});

test('only a JSON text with a surrogate escape may hold a surrogate: the others skip the walk', () => {
  for (const text of ['{"Text":"\\ud800"}', '{"Text":"\\uDFFF"}', '"\\ud83d\\ude00"', '{"\\udc00":1}']) assert.equal(mayHoldSurrogates(text), true, text);
  for (const text of ['{"Text":"hello"}', '{"Text":"\\u00e9 \\ud7ff \\ue000"}', '{"Text":"😀 raw"}', '{"Text":"\\\\"}', '']) assert.equal(mayHoldSurrogates(text), false, text);
});
