import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { openTestStore, storePerTest } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`store meta (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('get of an unknown key is null; set stores and overwrites', async () => {
      assert.equal(await ctx.store.meta.get('signing-key'), null);
      await ctx.store.meta.set('signing-key', 'one');
      assert.equal(await ctx.store.meta.get('signing-key'), 'one');
      await ctx.store.meta.set('signing-key', 'two');
      assert.equal(await ctx.store.meta.get('signing-key'), 'two');
      await ctx.store.meta.set('other', '');
      assert.equal(await ctx.store.meta.get('other'), '');
      assert.equal(await ctx.store.meta.get('signing-key'), 'two');
    });

    test('getOrInit stores the first value and keeps it', async () => {
      assert.equal(await ctx.store.meta.getOrInit('instance-id', 'first'), 'first');
      assert.equal(await ctx.store.meta.getOrInit('instance-id', 'second'), 'first');
      assert.equal(await ctx.store.meta.get('instance-id'), 'first');
      await ctx.store.meta.set('preset', 'set-before');
      assert.equal(await ctx.store.meta.getOrInit('preset', 'ignored'), 'set-before');
    });

    test('getOrInit inside a transaction', async () => {
      const value = await ctx.store.transaction((tx) => tx.meta.getOrInit('in-tx', 'tx-value'));
      assert.equal(value, 'tx-value');
      assert.equal(await ctx.store.meta.getOrInit('in-tx', 'later'), 'tx-value');
    });

    test('concurrent getOrInit with different values all return the same winner (20 keys)', async () => {
      for (let round = 0; round < 20; round++) {
        const key = `race-${round}`;
        const results = await Promise.all(['a', 'b', 'c'].map((v) => ctx.store.meta.getOrInit(key, `${v}-${round}`)));
        const stored = await ctx.store.meta.get(key);
        assert.ok(stored !== null && [`a-${round}`, `b-${round}`, `c-${round}`].includes(stored), `round ${round}: ${stored}`);
        assert.deepEqual(results, [stored, stored, stored], `round ${round}`);
      }
    });

    if (kind === 'postgres') {
      test('two nodes initialising one key at once agree on the winner', async () => {
        const node2 = await openTestStore(ctx.db);
        try {
          for (let round = 0; round < 20; round++) {
            const key = `nodes-${round}`;
            const [one, two] = await Promise.all([ctx.store.meta.getOrInit(key, 'node-1'), node2.meta.getOrInit(key, 'node-2')]);
            assert.equal(one, two, `round ${round}`);
            assert.equal(await node2.meta.get(key), one);
          }
        } finally {
          await node2.close();
        }
      });
    }
  });
}
