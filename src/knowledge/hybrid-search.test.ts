// The pure parts of hybrid search: words and meaning fused into one 0..1 score, the nearest-neighbour scan of a node's
// vector copy (and its staleness check), and the embeddings answer check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vectorBytes, vectorsOf } from '../integrations/embeddings-client.js';
import { fuse } from './hybrid-search.js';
import { fusedScore } from './ranking.js';
import { VectorIndex } from './vector-index.js';

test('fusion: a passage both find comes first, one only the vectors find still comes, a cosine under the minimum counts nothing; ties by id', () => {
  const fused = fuse(
    [
      { chunkId: 10, score: 0.6 },
      { chunkId: 20, score: 0.3 },
      { chunkId: 30, score: 0.3 },
    ],
    [
      { chunkId: 30, similarity: 0.7 },
      { chunkId: 40, similarity: 0.7 },
      { chunkId: 50, similarity: 0.2 },
    ],
    0.3,
  );
  // 30: words 0.3 and meaning 0.7 × (0.7 − 0.3) / (0.8 − 0.3) = 0.56 → 0.692; 10: words 0.6; 40: meaning alone 0.56
  assert.deepEqual(
    fused.map((f) => f.id),
    [30, 10, 40, 20],
    '50 is under the minimum: not found',
  );
  assert.equal(fused[0].score, fusedScore(0.3, 0.7, 0.3));
  assert.ok(fused[0].score > 0.3 && fused[0].score <= 1);
  assert.equal(fused[3].score, 0.3, 'words alone keep their score');
  assert.deepEqual(
    fuse(
      [
        { chunkId: 2, score: 0.4 },
        { chunkId: 1, score: 0.4 },
      ],
      [],
      0.3,
    ).map((f) => f.id),
    [1, 2],
  );
});

test('the vector copy: nearest first, below the minimum left out, reloaded when the stamp moves', async () => {
  let stamp = { count: 3, top: 3, sum: 6 };
  let loads = 0;
  const rows = [
    { chunkId: 1, vector: vectorBytes(Float32Array.from([1, 0])) },
    { chunkId: 2, vector: vectorBytes(Float32Array.from([0.6, 0.8])) },
    { chunkId: 3, vector: vectorBytes(Float32Array.from([0, 1])) },
  ];
  const index = new VectorIndex({ stamp: async () => stamp, vectors: async () => (loads++, rows) });
  const q = Float32Array.from([0, 1]);
  assert.deepEqual(await index.nearest('b', 'm', q, 2, 0.1), [
    { chunkId: 3, similarity: 1 },
    { chunkId: 2, similarity: Math.fround(0.8) },
  ]);
  assert.deepEqual(
    (await index.nearest('b', 'm', q, 5, 0.9)).map((n) => n.chunkId),
    [3],
  );
  assert.equal(loads, 1, 'the same stamp: the copy is kept');
  rows.pop();
  stamp = { count: 2, top: 2, sum: 3 };
  assert.deepEqual(
    (await index.nearest('b', 'm', q, 5, 0.1)).map((n) => n.chunkId),
    [2],
  );
  assert.equal(loads, 2);
  assert.deepEqual(await index.nearest('b', 'm', Float32Array.from([1, 0, 0]), 5, -1), [], 'another length: no match');
});

test('an embeddings answer is accepted whole or not at all, scaled to length 1', () => {
  const ok = vectorsOf(
    {
      data: [
        { index: 1, embedding: [0, 2] },
        { index: 0, embedding: [3, 4] },
      ],
      usage: { total_tokens: 7 },
    },
    2,
  );
  assert.equal(ok.status, 'OK');
  assert.deepEqual(
    ok.vectors.map((v) => [...v]),
    [
      [Math.fround(0.6), Math.fround(0.8)],
      [0, 1],
    ],
  );
  assert.equal(ok.tokens, 7);
  for (const bad of [
    { data: [{ embedding: [1] }] },
    {
      data: [
        { index: 0, embedding: [1] },
        { index: 0, embedding: [1] },
      ],
    },
    { data: [{ embedding: [1, 2] }, { embedding: [1] }] },
    { data: [{ embedding: [0, 0] }, { embedding: [1, 1] }] },
    { data: [{ embedding: [1, 'x'] }, { embedding: [1, 1] }] },
    { data: [{ embedding: [] }, { embedding: [1] }] },
    { data: [{ embedding: new Array(5000).fill(1) }, { embedding: [1] }] },
    { data: 'nope' },
    null,
  ]) {
    assert.equal(vectorsOf(bad, 2).status, 'ERROR', JSON.stringify(bad)?.slice(0, 80));
  }
});
