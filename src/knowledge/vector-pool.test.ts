// The vector scan off the request thread (vector-pool.ts, vector-scan.ts): the same neighbours as
// a plain sort of every row, computed on the pool's threads from the shared matrix, and a full
// queue refused with KNOWLEDGE_BUSY.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vectorBytes } from '../integrations/embeddings-client.js';
import { AppError } from '../shared/errors.js';
import { VectorIndex } from './vector-index.js';
import { VectorPool } from './vector-pool.js';
import { dot, type Neighbour } from './vector-scan.js';

/** A fixed pseudo-random sequence (the same vectors on every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
}

function unitVectors(count: number, dims: number, next: () => number): Float32Array[] {
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

/** The straightforward answer: every row's similarity, sorted (best first, equal ones by row). */
function reference(rows: Float32Array[], ids: number[], query: Float32Array, k: number, min: number): Neighbour[] {
  return rows
    .map((row, i) => ({ row: i, similarity: dot(row, 0, query) }))
    .filter((r) => r.similarity >= min)
    .sort((a, b) => b.similarity - a.similarity || a.row - b.row)
    .slice(0, k)
    .map((r) => ({ chunkId: ids[r.row], similarity: r.similarity }));
}

test('scans on the threads find what sorting every row finds, ties included', async () => {
  const next = random(42);
  const dims = 64;
  const distinct = unitVectors(3000, dims, next);
  // each tenth row repeated later: equal similarities, the earlier row first
  const rows = [...distinct, ...distinct.filter((_, i) => i % 10 === 0)];
  const ids = rows.map((_, i) => 1000 + i * 3);
  const stored = rows.map((v, i) => ({ chunkId: ids[i], vector: vectorBytes(v) }));
  const pool = new VectorPool({ threads: 2, queue: 16, inThreadCells: 0 });
  const index = new VectorIndex({ stamp: async () => ({ count: rows.length, top: ids.at(-1)!, sum: 0 }), vectors: async () => stored }, undefined, pool);
  const queries = [...unitVectors(6, dims, next), rows[7], rows[3001]];
  for (const query of queries) {
    for (const [k, min] of [
      [1, -1],
      [5, -1],
      [50, 0.1],
      [400, 0],
      [5, 0.99],
    ] as const) {
      assert.deepEqual(await index.nearest('bot', 'model', query, k, min), reference(rows, ids, query, k, min), `k ${k}, min ${min}`);
    }
  }
  const own = await index.nearest('bot', 'model', rows[3001], 2, -1);
  assert.deepEqual(
    own.map((n) => n.chunkId),
    [ids[10], ids[3001]],
    'a row and its later copy: the earlier first',
  );
});

test('a full queue: the next scan is refused with KNOWLEDGE_BUSY, those taken still answer', async () => {
  const next = random(7);
  const rows = unitVectors(2000, 32, next);
  const values = new Float32Array(new SharedArrayBuffer(rows.length * 32 * 4));
  rows.forEach((v, i) => values.set(v, i * 32));
  const ids = Float64Array.from(rows, (_, i) => i + 1);
  const job = { ids, values, dims: 32, query: rows[5], k: 3, minSimilarity: -1 };
  const pool = new VectorPool({ threads: 1, queue: 1, inThreadCells: 0 });
  const running = pool.scan(job);
  const waiting = pool.scan(job);
  assert.deepEqual(pool.load, { running: 1, waiting: 1 }, 'on the thread, not on this one');
  await assert.rejects(pool.scan(job), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'KNOWLEDGE_BUSY');
    assert.equal(error.status, 503);
    assert.deepEqual(error.extra, { Limit: 'SearchQueue', Max: 1 });
    return true;
  });
  const expected = reference(rows, [...ids], rows[5], 3, -1);
  assert.deepEqual(await running, expected);
  assert.deepEqual(await waiting, expected);
  assert.deepEqual(pool.load, { running: 0, waiting: 0 });
  assert.deepEqual(await pool.scan(job), expected, 'room again once the queue is empty');
});
