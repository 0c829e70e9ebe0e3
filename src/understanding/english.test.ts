// Reading English before nlp.js: shorthand only as whole words, contractions left to nlp.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { englishWords, readEnglish } from './english.js';

test('chat shorthand is spelled out for whole words only; punctuation goes', () => {
  assert.deepEqual(englishWords('can u get me on a flight pls?'), ['can', 'you', 'get', 'me', 'on', 'a', 'flight', 'please']);
  assert.deepEqual(englishWords('Urgent: your refund, thx!!'), ['urgent', 'your', 'refund', 'thanks']);
  assert.deepEqual(englishWords("I'd like a check-in"), ["i'd", 'like', 'a', 'check-in']);
});

test('an unknown word becomes a known one: synonym, hyphen parts, typo; English words and contractions stay', () => {
  const known = new Set(['refund', 'check', 'in', 'please', 'ticket']);
  const reader = {
    stem: (word: string) => word,
    known: (stem: string) => known.has(stem),
    nearestKnown: (stem: string) => (stem === 'tickt' ? 'ticket' : stem),
    synonyms: new Map([['repayment', 'refund']]),
    isEnglish: (word: string) => word === 'walking',
  };
  assert.equal(readEnglish('repayment pls', reader), 'refund please');
  assert.equal(readEnglish('check-in tickt', reader), 'check in ticket');
  assert.equal(readEnglish("walking i'd", reader), "walking i'd");
});
