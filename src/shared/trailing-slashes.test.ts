import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutTrailingSlashes } from './trailing-slashes.js';

test('drops every trailing slash and nothing else', () => {
  assert.equal(withoutTrailingSlashes('https://chat.example.com/app///'), 'https://chat.example.com/app');
  assert.equal(withoutTrailingSlashes('/a//b'), '/a//b');
  assert.equal(withoutTrailingSlashes('///'), '');
  assert.equal(withoutTrailingSlashes(''), '');
});

test('a long run of slashes not at the end comes back whole (the regex it replaces was quadratic here)', () => {
  const text = `/${'/'.repeat(100_000)}x`;
  assert.equal(withoutTrailingSlashes(text), text);
});
