import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, byMeaning, classSimilarities, LEXICAL_WEIGHT, OUT_OF_SCOPE_LABEL } from './meaning-scores.js';

const unit = (...xs: number[]) => {
  const length = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / length);
};
const close = (actual: number | undefined, expected: number) => assert.ok(Math.abs((actual ?? NaN) - expected) < 1e-6, `${actual} ≠ ${expected}`);

test('a class is as similar as the mean of its three nearest examples; a vector of another length is left out', () => {
  const labels = ['refund', 'refund', 'refund', 'refund', 'human', OUT_OF_SCOPE_LABEL, 'human'];
  const vectors = [unit(1, 0), unit(0, 1), unit(1, 1), unit(3, 1), unit(0, 1), unit(-1, 0), unit(1, 0, 0)];
  const similarities = classSimilarities(labels, vectors, unit(1, 0));
  // refund's nearest three: 1, 3/√10, 1/√2 (0 is the fourth)
  close(similarities.get('refund'), (1 + 3 / Math.sqrt(10) + 1 / Math.sqrt(2)) / 3);
  close(similarities.get('human'), 0);
  close(similarities.get(OUT_OF_SCOPE_LABEL), -1);
  assert.equal(similarities.size, 3);
});

test("an intent scores BASE plus its lead over the out-of-scope class, nlp.js's score adding a tenth", () => {
  const similarities = new Map([
    ['refund', 0.62],
    ['human', 0.4],
    [OUT_OF_SCOPE_LABEL, 0.6],
  ]);
  const intents = byMeaning({ intents: [{ intent: 'refund', score: 0.3 }] }, similarities, 0.3);
  assert.deepEqual(
    intents.map((i) => i.intent),
    ['refund', 'human'],
  );
  close(intents[0].score, BASE + 0.62 + LEXICAL_WEIGHT * 0.3 - 0.6);
  close(intents[1].score, BASE + 0.4 - 0.6);
  // 0.7, the default threshold, is reached at a lead of 0.05
  close(
    byMeaning(
      { intents: [] },
      new Map([
        ['refund', 0.65],
        [OUT_OF_SCOPE_LABEL, 0.6],
      ]),
      0.3,
    )[0].score,
    0.7,
  );
});

test('a text nearer the out-of-scope sentences loses the intent nlp.js was sure of', () => {
  const intents = byMeaning(
    { intents: [{ intent: 'refund', score: 1 }] },
    new Map([
      ['refund', 0.4],
      [OUT_OF_SCOPE_LABEL, 0.57],
    ]),
    0.3,
  );
  close(intents[0].score, BASE + 0.4 + LEXICAL_WEIGHT - 0.57);
  assert.ok(intents[0].score < 0.7);
});

test('an intent under the minimum similarity scores 0, and scores stay within 0 and 1', () => {
  const similarities = new Map([
    ['refund', 0.95],
    ['human', 0.25],
    ['lost', 0.31],
    [OUT_OF_SCOPE_LABEL, -0.2],
  ]);
  const intents = byMeaning(
    {
      intents: [
        { intent: 'human', score: 1 },
        { intent: 'lost', score: 0 },
      ],
    },
    similarities,
    0.3,
  );
  assert.deepEqual(intents, [
    { intent: 'lost', score: 1 },
    { intent: 'refund', score: 1 },
    { intent: 'human', score: 0 },
  ]);
  assert.deepEqual(
    byMeaning(
      { intents: [] },
      new Map([
        ['refund', 0.3],
        [OUT_OF_SCOPE_LABEL, 0.99],
      ]),
      0.3,
    ),
    [{ intent: 'refund', score: 0 }],
  );
});
