// A cached principal lives until this node writes a bot or account row, or for one second.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_AGE_MS, PrincipalCache } from './principal-cache.js';
import type { Principal } from './authenticate.js';

const principal = (name: string): Principal => ({ kind: 'account', account: { id: 'a', name, plan: 'pro', packages: [], keyVersion: 1, createdAt: 0 } as never });

test('read once, then served from the cache until a principal write on this node or the maximum age', async () => {
  let generation = 0;
  let now = 0;
  let reads = 0;
  const cache = new PrincipalCache<Principal>(
    () => generation,
    () => now,
  );
  const read = async () => principal(`read ${++reads}`);
  assert.deepEqual(await cache.through('t', read), principal('read 1'));
  assert.deepEqual(await cache.through('t', read), principal('read 1'));
  generation++;
  assert.deepEqual(await cache.through('t', read), principal('read 2'), 'a write on this node: read again');
  now += MAX_AGE_MS - 1;
  assert.deepEqual(await cache.through('t', read), principal('read 2'));
  now += 1;
  assert.deepEqual(await cache.through('t', read), principal('read 3'), 'too old: another node may have changed it');
  assert.equal(reads, 3);
});

test('a principal read while this node wrote one is not kept, and a failed read is not kept', async () => {
  let generation = 0;
  const cache = new PrincipalCache<Principal>(
    () => generation,
    () => 0,
  );
  await cache.through('t', async () => (generation++, principal('during a write')));
  assert.deepEqual(await cache.through('t', async () => principal('after')), principal('after'));
  await assert.rejects(
    cache.through('u', async () => {
      throw new Error('gone');
    }),
    /gone/,
  );
  assert.deepEqual(await cache.through('u', async () => principal('now')), principal('now'));
});
