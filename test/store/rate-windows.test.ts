// The rate_windows table (migration 13) through the store: reports add up per key and window, a
// window that ended starts again, ended windows are pruned, and keys are stored hashed. SQLite is
// one node and has no table to share through.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../src/store/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { openRaw, openTestStore } from './store-fixtures.js';

const MINUTE = 60_000;

for (const kind of databaseKinds()) {
  describe(`shared rate windows (${kind})`, () => {
    let database: TestDatabase;
    let store: Store;
    before(async () => {
      database = await createTestDatabase(kind);
      store = await openTestStore(database);
      await store.migrate();
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    if (kind === 'sqlite') {
      test('SQLite has none: its one node counts in memory', () => assert.equal(store.rateWindows, null));
      return;
    }

    test('reports add up in one window, several keys in one statement', async () => {
      const first = await store.rateWindows!.report(
        [
          { key: 'address:203.0.113.1', delta: 3, windowMs: MINUTE },
          { key: 'bot:b', delta: 1, windowMs: MINUTE },
        ],
        1_000,
      );
      assert.deepEqual(Object.fromEntries(first), { 'address:203.0.113.1': { startedAt: 1_000, count: 3 }, 'bot:b': { startedAt: 1_000, count: 1 } });
      const second = await store.rateWindows!.report([{ key: 'address:203.0.113.1', delta: 2, windowMs: MINUTE }], 30_000);
      assert.deepEqual(second.get('address:203.0.113.1'), { startedAt: 1_000, count: 5 });
    });

    test('a window that ended starts again with the report', async () => {
      const again = await store.rateWindows!.report([{ key: 'address:203.0.113.1', delta: 1, windowMs: MINUTE }], 61_000);
      assert.deepEqual(again.get('address:203.0.113.1'), { startedAt: 61_000, count: 1 });
    });

    test('no client address is stored, and ended windows are pruned', async () => {
      const raw = await openRaw(database);
      try {
        const keys = (await raw.all<{ key: string }>('SELECT key FROM rate_windows ORDER BY key')).map((r) => r.key);
        assert.equal(keys.length, 2);
        for (const key of keys) assert.match(key, /^[\w-]{43}$/);
        assert.equal(await store.rateWindows!.prune(100_000), 1, 'bot:b ended at 61,000; the address at 121,000');
        assert.equal((await raw.get<{ n: number }>('SELECT count(*)::int AS n FROM rate_windows'))!.n, 1);
      } finally {
        await raw.close();
      }
    });
  });
}
