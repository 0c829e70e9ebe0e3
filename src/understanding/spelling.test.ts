// Typo tolerance: a swap is one edit, the limit grows with the word, the nearest word wins and
// short words are never guessed at.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { editDistance, editsAllowed, Vocabulary } from './spelling.js';

test('edit distance: insert, delete, substitute and a swap of neighbours are one edit each; past the limit is limit + 1', () => {
  assert.equal(editDistance('cancle', 'cancel', 2), 1);
  assert.equal(editDistance('boardng', 'boarding', 1), 1);
  assert.equal(editDistance('refnd', 'refund', 1), 1);
  assert.equal(editDistance('flight', 'flight', 1), 0);
  assert.equal(editDistance('alergens', 'allergens', 2), 1);
  assert.equal(editDistance('luggage', 'baggage', 3), 2);
  assert.equal(editDistance('luggage', 'baggage', 1), 2);
  assert.equal(editDistance('walking', 'talking', 1), 1);
  assert.equal(editDistance('abc', 'abcdef', 2), 3);
  assert.equal(editDistance('', 'ab', 2), 2);
  // long words: only the band is computed, the answer is the same
  const long = 'ab'.repeat(2_500);
  assert.equal(editDistance(`${long}xy`, `${long}yx`, 2), 1);
  assert.equal(editDistance(`${long}xyz`, `z${long}xy`, 2), 2);
  assert.equal(editDistance(`${long}xyz`, `${long}qrs`, 2), 3);
});

test('edits allowed grow with the word: none under 4 letters, one up to 7, two from 8', () => {
  assert.deepEqual([3, 4, 7, 8, 12].map(editsAllowed), [0, 1, 1, 2, 2]);
});

test('the nearest word is read: fewest edits, then the same first letter, then the first in order', () => {
  const words = new Vocabulary(['cancel', 'boarding', 'board', 'refund', 'allowance', 'book', 'cat', 'bat', 'hat']);
  assert.equal(words.nearest('cancle'), 'cancel');
  assert.equal(words.nearest('boardng'), 'boarding');
  assert.equal(words.nearest('allowence'), 'allowance');
  assert.equal(words.nearest('alowence'), 'allowance');
  assert.equal(words.nearest('refnd'), 'refund');
  // three letters: too many words are one edit away
  assert.equal(words.nearest('bok'), undefined);
  assert.equal(words.nearest('zzzzzz'), undefined);
  // "xats" is one edit from "bat", "cat" and "hat" (none shares its first letter): the first in order
  assert.equal(new Vocabulary(['hats', 'cats', 'bats']).nearest('xats'), 'bats');
  // "cbts" is one edit from "bbts" and from "cats": the one sharing its first letter, though later in order
  assert.equal(new Vocabulary(['bbts', 'cats']).nearest('cbts'), 'cats');
});

/** The full table, no band and no early stop: what the banded one must agree with. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

test('the banded distance agrees with the full table up to its limit', () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 9 });
  fc.assert(
    fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, limit) => {
      assert.equal(editDistance(a, b, limit), Math.min(fullDistance(a, b), limit + 1));
    }),
    { numRuns: 2000, seed: 22 },
  );
});
