// The ranking rule (ranking.ts): distinct words beat repetition, headings count as part of their
// passages, rare words weigh more than common ones, scores stay in 0..1, and meaning fuses in only
// above the model's minimum similarity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fusedScore, rankByWords, wordScore, weighedStems } from './ranking.js';
import { stemmerOf } from './stems.js';
import { searchTerms } from './terms.js';

const passage = (chunkId: number, text: string, heading = '') => ({ chunkId, heading, text });
const stats = (passages: number, frequencies: Record<string, number>) => ({ passages, frequencies: new Map(Object.entries(frequencies)) });

test('a passage holding more of the distinct words beats one repeating one word', async () => {
  const stem = await stemmerOf('en');
  const ranked = rankByWords(
    ['storage', 'bike', 'weeks'],
    [passage(1, 'Bike repairs: a bike repair takes a bike mechanic two days. Bike bike bike.'), passage(2, 'We keep a bike in storage for up to six weeks.')],
    stats(40, { storage: 1, bike: 2, weeks: 1 }),
    stem,
  );
  assert.deepEqual(
    ranked.map((p) => p.chunkId),
    [2, 1],
  );
  assert.ok(ranked[0].score > 0.85 && ranked[0].score <= 1, String(ranked[0].score));
  assert.ok(ranked[1].score < 0.35, String(ranked[1].score));
});

test('the heading counts as part of its passage', async () => {
  const stem = await stemmerOf('en');
  const ranked = rankByWords(['refunds', 'days'], [passage(1, 'Money is returned in 14 days.', 'Refunds'), passage(2, 'Deliveries take two days.')], stats(10, { refunds: 1, days: 2 }), stem);
  assert.deepEqual(
    ranked.map((p) => p.chunkId),
    [1, 2],
  );
  assert.ok(ranked[0].score > 0.89, String(ranked[0].score));
});

test('stop words alone match nothing; a word of the question in no passage lowers the score', async () => {
  const stem = await stemmerOf('en');
  assert.deepEqual(searchTerms('Can I the of and in a?', 'en'), []);
  assert.deepEqual(rankByWords([], [passage(1, 'Can I bring the dog in a carrier?')], stats(1, {}), stem), []);
  const sure = rankByWords(['dog', 'carrier'], [passage(1, 'A dog travels in a carrier.')], stats(20, { dog: 1, carrier: 1 }), stem)[0].score;
  const incidental = rankByWords(['dog', 'football', 'match'], [passage(1, 'A dog travels in a carrier.')], stats(20, { dog: 1 }), stem)[0].score;
  assert.ok(sure > 0.89);
  assert.ok(incidental < 0.4, `one incidental shared word: ${incidental}`);
});

test('rare words weigh more than common ones; scores run 0..1', async () => {
  const stem = await stemmerOf('en');
  const weights = weighedStems(['order', 'canada'], stats(100, { order: 60, canada: 1 }), stem);
  assert.ok(weights.get('canada')! > 3 * weights.get('order')!);
  const ranked = rankByWords(['order', 'canada'], [passage(1, 'Track your order online.'), passage(2, 'We ship to Canada.')], stats(100, { order: 60, canada: 1 }), stem);
  assert.deepEqual(
    ranked.map((p) => p.chunkId),
    [2, 1],
  );
  for (const counts of [
    new Map(),
    new Map([['order', 1]]),
    new Map([
      ['order', 50],
      ['canada', 50],
    ]),
  ]) {
    const s = wordScore(weights, counts);
    assert.ok(s >= 0 && s <= 1, String(s));
  }
  assert.equal(
    wordScore(
      weights,
      new Map([
        ['order', 9],
        ['canada', 9],
      ]),
    ),
    1,
  );
});

test('fusion: meaning above the minimum raises the words score, under it counts nothing, the result stays in 0..1', () => {
  assert.equal(fusedScore(0.3, null, 0.3), 0.3);
  assert.equal(fusedScore(0.3, 0.25, 0.3), 0.3, 'under the minimum: nothing');
  assert.equal(fusedScore(0, 0.29, 0.3), 0);
  assert.ok(fusedScore(0.3, 0.6, 0.3) > 0.3);
  assert.ok(fusedScore(0, 0.6, 0.3) > 0 && fusedScore(0, 0.6, 0.3) < fusedScore(0.3, 0.6, 0.3), 'both find it: above either alone');
  assert.ok(fusedScore(0, 0.99, 0.3) < 1, 'a cosine alone is never certainty');
  assert.equal(fusedScore(1, 0.99, 0.3), 1);
  for (const w of [0, 0.5, 1])
    for (const s of [-1, 0, 0.3, 0.8, 1]) {
      const f = fusedScore(w, s, 0.3);
      assert.ok(f >= 0 && f <= 1, `${w} ${s} → ${f}`);
    }
});
