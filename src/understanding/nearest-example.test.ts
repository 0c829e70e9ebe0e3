// The nearest-example scorer (issue 22) on a fixture small enough to work out by hand: three
// classes (two intents and None), so a stem used by one class weighs ln 4 and one used by two
// ln 2; a word no example has weighs ln 4 too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineScores, NearestExamples, STEMS_READ, type Nearness } from './nearest-example.js';
import { lookUp } from './wordnet.js';

const scorer = new NearestExamples(
  {
    intents: { refund: ['refund', 'money back', 'reimburs'], agent: ['talk agent', 'talk person'] },
    none: ['weather today', 'talk weather'],
    names: ['london'],
  },
  { repay: 'refund' },
);
const rounded = (found: Nearness[]) => found.map((n) => [n.intent, +n.similarity.toFixed(4), +n.coverage.toFixed(4), +n.closeness.toFixed(4)]);

test('a text is as near a class as its nearest example, weighed by how few classes use each stem', () => {
  assert.deepEqual(rounded(scorer.nearest(['money', 'back'])), [['refund', 1, 1, 1]]);
  // one known stem and one unknown, both ln 4: cosine 1/√2, half the text covered
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: the expected score rounded to 4 places, not √½ itself
  assert.deepEqual(rounded(scorer.nearest(['reimburs', 'xyz'])), [['refund', 0.7071, 0.5, 0.5946]]);
  // "talk" (two classes, ln 2) with "weather" (None only, ln 4): nearest the out-of-scope example
  assert.deepEqual(rounded(scorer.nearest(['talk', 'weather'])), [
    ['None', 1, 1, 1],
    ['agent', 0.2, 0.2, 0.2],
  ]);
  assert.deepEqual(scorer.nearest(['xyz']), []);
});

test("numbers, codes and names are left out; a related word counts as its example's word, never more", () => {
  assert.deepEqual(rounded(scorer.nearest(['london', '123', 'lh400', 'refund'])), [['refund', 1, 1, 1]]);
  // "repay" is stored as related to "refund": exactly as near as "refund" itself would be
  assert.deepEqual(rounded(scorer.nearest(['repay', 'xyz'])), rounded(scorer.nearest(['refund', 'xyz'])));
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: the expected score rounded to 4 places, not √½ itself
  assert.deepEqual(rounded(scorer.nearest(['repay', 'xyz'])), [['refund', 0.7071, 0.5, 0.5946]]);
});

test('a long text is read for its first STEMS_READ stems only: its cost stays bounded', () => {
  const filler = Array.from({ length: STEMS_READ }, (_, i) => `zq${i}`);
  assert.deepEqual(scorer.nearest([...filler, 'refund']), []);
  assert.deepEqual(
    rounded(scorer.nearest([...filler.slice(1), 'refund'])).map(([intent]) => intent),
    ['refund'],
  );
});

test('the scores change only when the nearest class is an intent, near enough and clearly ahead', () => {
  const nlp = [
    { intent: 'refund', score: 0.57 },
    { intent: 'agent', score: 0.1 },
  ];
  const near = (...classes: [string, number][]) => classes.map(([intent, closeness]) => ({ intent, similarity: closeness, coverage: closeness, closeness }));
  // 1 − (1 − 0.57)(1 − 1)
  assert.deepEqual(
    combineScores(nlp, scorer.nearest(['money', 'back'])).map((i) => [i.intent, +i.score.toFixed(4)]),
    [
      ['refund', 1],
      ['agent', 0.1],
    ],
  );
  // 1 − (1 − 0.57)(1 − 0.6)
  assert.deepEqual(
    combineScores(nlp, near(['refund', 0.6])).map((i) => [i.intent, +i.score.toFixed(4)]),
    [
      ['refund', 0.828],
      ['agent', 0.1],
    ],
  );
  // one known word and one unknown ("who discovered penicillin": "find" as in "find me a flight") is not near enough
  assert.deepEqual(combineScores(nlp, scorer.nearest(['reimburs', 'xyz'])), nlp);
  // an intent nlp.js scored at zero (left out of its list) may come first
  assert.deepEqual(
    combineScores([{ intent: 'agent', score: 0.3 }], near(['refund', 0.8])).map((i) => [i.intent, +i.score.toFixed(4)]),
    [
      ['refund', 0.8],
      ['agent', 0.3],
    ],
  );
  // the second intent may rise above nlp.js's first
  assert.deepEqual(
    combineScores(nlp, near(['agent', 0.9], ['refund', 0.3])).map((i) => [i.intent, +i.score.toFixed(4)]),
    [
      ['agent', 0.91],
      ['refund', 0.57],
    ],
  );
  assert.deepEqual(combineScores(nlp, near(['None', 0.9], ['refund', 0.6])), nlp, 'out of scope nearest');
  assert.deepEqual(combineScores(nlp, near(['refund', 0.7], ['None', 0.65])), nlp, 'not ahead of out of scope');
  assert.deepEqual(combineScores(nlp, near(['agent', 0.7], ['refund', 0.65])), nlp, 'not ahead of the next intent');
  assert.deepEqual(combineScores(nlp, near(['agent', 0.59])), nlp, 'not near enough');
  assert.deepEqual(combineScores(nlp, []), nlp);
});

test('WordNet: narrower and same-root words are related, broader ones not; names are only names', () => {
  const { related, names, synonyms } = lookUp(new Set(['cancel', 'depart', 'london', 'paris', 'book']));
  assert.ok(related.get('cancel')!.includes('void'), 'void is a way to cancel');
  assert.ok(related.get('depart')!.includes('departure'), 'same root');
  assert.ok(!related.get('cancel')!.includes('terminate'), 'a broader word');
  assert.ok(synonyms.get('cancel')!.includes('scrub'));
  // "paris" is also a plant genus: not only a name
  assert.deepEqual([...names], ['london']);
});
