// WordNet look-ups made at training: synonyms, derived forms and two-word phrases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEnglish, synonymsOf } from './wordnet.js';

test('a word\'s synonyms include its derived forms ("departure" of "depart"), and a phrase has its own', () => {
  const found = synonymsOf(new Set(['depart', 'call_off', 'refund', 'zqxv']));
  assert.deepEqual(found.get('depart'), ['departer', 'departure', 'deviate', 'digress', 'diverge', 'go', 'leave', 'part', 'quit', 'sidetrack', 'start', 'straggle', 'vary']);
  assert.deepEqual(found.get('call_off'), ['call', 'cancel', 'scratch', 'scrub']);
  assert.deepEqual(found.get('refund'), ['repay', 'repayment', 'return']);
  assert.equal(found.has('zqxv'), false);
});

test('English words and their regular inflections are English; typos are not', () => {
  const known = new Set(['walk', 'cancel', 'delay', 'board']);
  assert.deepEqual(['walking', 'cancelled', 'delays', 'boardng', 'cancle'].map((w) => isEnglish(w, known)), [true, true, true, false, false]);
});
