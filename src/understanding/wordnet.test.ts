// WordNet: which words are English (a real word is never read as a typo).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEnglish } from './wordnet.js';

test('English words and their regular inflections are English; typos are not', () => {
  const known = new Set(['walk', 'cancel', 'delay', 'board']);
  assert.deepEqual(
    ['walking', 'cancelled', 'delays', 'boardng', 'cancle'].map((w) => isEnglish(w, known)),
    [true, true, true, false, false],
  );
});
