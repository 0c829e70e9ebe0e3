// The built-in model's LRU of vectors: a hit makes an entry the newest, the oldest goes first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VectorCache } from './vector-cache.js';

const v = (x: number) => Float32Array.of(x);

test('keeps at most its capacity, dropping the least recently used', () => {
  const cache = new VectorCache(2);
  cache.set('a', v(1));
  cache.set('b', v(2));
  assert.deepEqual(cache.get('a'), v(1));
  cache.set('c', v(3));
  assert.equal(cache.size, 2);
  assert.equal(cache.get('b'), undefined);
  assert.deepEqual(cache.get('a'), v(1));
  assert.deepEqual(cache.get('c'), v(3));
});

test('setting a known text replaces its vector and makes it the newest', () => {
  const cache = new VectorCache(2);
  cache.set('a', v(1));
  cache.set('b', v(2));
  cache.set('a', v(9));
  cache.set('c', v(3));
  assert.deepEqual(cache.get('a'), v(9));
  assert.equal(cache.get('b'), undefined);
});

test('a capacity of 0 keeps nothing', () => {
  const cache = new VectorCache(0);
  cache.set('a', v(1));
  assert.equal(cache.size, 0);
  assert.equal(cache.get('a'), undefined);
});
