// Reading English before nlp.js: shorthand only as whole words, contractions left to nlp.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { englishWords, readEnglish, TYPO_LOOKUPS } from './english.js';

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
    nearestKnown: (word: string) => (word === 'tickt' ? 'ticket' : undefined),
    synonyms: new Map([['repayment', 'refund']]),
    isEnglish: (word: string) => word === 'walking',
  };
  assert.equal(readEnglish('repayment pls', reader), 'refund please');
  assert.equal(readEnglish('check-in tickt', reader), 'check in ticket');
  assert.equal(readEnglish("walking i'd", reader), "walking i'd");
  // a word neither known nor English, with nothing near it, stays as it is (out-of-scope evidence)
  assert.equal(readEnglish('zqx refund', reader), 'zqx refund');
});

test('contractions typed without their apostrophe are spelled out; those that are words stay', () => {
  assert.deepEqual(englishWords('hows it going, doesnt work, whens closing'), ['how', 'is', 'it', 'going', 'does', 'not', 'work', 'when', 'is', 'closing']);
  assert.deepEqual(englishWords('ill were its well lets'), ['ill', 'were', 'its', 'well', 'lets']);
  assert.deepEqual(englishWords('open 24 hrs, lemme know thru email'), ['open', '24', 'hours', 'let', 'me', 'know', 'through', 'email']);
});

test('links and addresses are not words of the question', () => {
  assert.deepEqual(englishWords('Track https://example.org/track?id=7 please'), ['track', 'please']);
  assert.deepEqual(englishWords('see www.example.com or write to ann@example.org now'), ['see', 'or', 'write', 'to', 'now']);
  assert.deepEqual(englishWords('reach me @ home'), ['reach', 'me', 'home']);
});

test('a text gets at most TYPO_LOOKUPS typo look-ups: the words after stay as written', () => {
  let calls = 0;
  const reader = {
    stem: (word: string) => word,
    known: () => false,
    nearestKnown: () => {
      calls += 1;
      return 'refund';
    },
    synonyms: new Map<string, string>(),
    isEnglish: () => false,
  };
  const words = Array.from({ length: TYPO_LOOKUPS + 4 }, (_, i) => `zq${String.fromCharCode(97 + i)}x`);
  const read = readEnglish(words.join(' '), reader).split(' ');
  assert.equal(calls, TYPO_LOOKUPS);
  assert.deepEqual(read, [...Array<string>(TYPO_LOOKUPS).fill('refund'), ...words.slice(TYPO_LOOKUPS)]);
});
