import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { migrations } from '../../src/store/migrations/index.js';
import type { Store } from '../../src/store/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { openRaw, openTestStore } from './store-fixtures.js';

/** Every table the migrations of `dialect` create, plus the bookkeeping table. */
const tablesOf = (dialect: 'sqlite' | 'postgres') =>
  [
    'schema_migrations',
    ...migrations.flatMap((m) => [...m[dialect].matchAll(/CREATE TABLE (\w+)/g)].map((match) => match[1])),
    // an FTS5 table with external content keeps its index in four shadow tables of its own
    ...migrations.flatMap((m) => [...m[dialect].matchAll(/CREATE VIRTUAL TABLE (\w+) USING fts5/g)].flatMap(([, name]) => ['', '_config', '_data', '_docsize', '_idx'].map((suffix) => name + suffix))),
  ].sort();

async function appliedVersions(db: TestDatabase): Promise<Array<{ version: number; n: number }>> {
  const raw = await openRaw(db);
  try {
    const rows = await raw.all<{ version: number; n: number }>('SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version');
    return rows.map((r) => ({ version: Number(r.version), n: Number(r.n) }));
  } finally {
    await raw.close();
  }
}

async function tableNames(db: TestDatabase): Promise<string[]> {
  const raw = await openRaw(db);
  try {
    const rows =
      raw.dialect === 'sqlite'
        ? await raw.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        : await raw.all<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()');
    return rows.map((r) => r.name).sort();
  } finally {
    await raw.close();
  }
}

const everyVersionOnce = () => migrations.map((m) => ({ version: m.version, n: 1 }));

for (const kind of databaseKinds()) {
  describe(`store migrations (${kind})`, () => {
    let db: TestDatabase;
    const opened: Store[] = [];
    const open = async () => {
      const store = await openTestStore(db);
      opened.push(store);
      return store;
    };
    beforeEach(async () => {
      db = await createTestDatabase(kind);
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await db.drop();
    });

    test('a fresh database gets every migration once; a second run applies none', async () => {
      assert.ok(migrations.length >= 1);
      const store = await open();
      const lines: string[] = [];
      assert.equal(await store.migrate((line) => lines.push(line)), migrations.length);
      assert.deepEqual(
        lines,
        migrations.map((m) => `applied migration ${m.version} (${m.name})`),
      );
      assert.equal(await store.migrate(), 0);
      assert.deepEqual(await appliedVersions(db), everyVersionOnce());
      assert.deepEqual(await tableNames(db), tablesOf(kind));
      // The core tables of the first migration are among them.
      for (const table of ['accounts', 'bots', 'bot_versions', 'conversations', 'messages', 'meta', 'operators', 'usage']) {
        assert.ok(tablesOf(kind).includes(table), table);
      }
    });

    test('a store opened later on a migrated database applies nothing and can use it', async () => {
      const first = await open();
      await first.migrate();
      await first.meta.set('written-by', 'first');
      const second = await open();
      const lines: string[] = [];
      assert.equal(await second.migrate((line) => lines.push(line)), 0);
      assert.deepEqual(lines, []);
      assert.equal(await second.meta.get('written-by'), 'first');
      assert.deepEqual(await appliedVersions(db), everyVersionOnce());
    });

    test('migration 9 counts the stored history of every existing conversation into its row', async () => {
      const raw = await openRaw(db);
      const parts = ['[{"Text":"héllo"}]', '[{"Text":"a"},{"Text":"b"}]', '[]'];
      try {
        await raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
        for (const m of migrations.filter((m) => m.version < 9)) {
          await raw.exec(kind === 'sqlite' ? m.sqlite : m.postgres);
          await raw.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, 'then']);
        }
        await raw.run("INSERT INTO accounts (id, name, plan, packages, api_key_hash, created_at) VALUES ('acc-1', 'Old', 'standard', '[]', 'hash', 1)");
        await raw.run(
          `INSERT INTO bots (id, account_id, api_key, api_secret, secret_version, web_key, name, description, avatar, settings, draft,
             version, live_version_id, role, master_bot_id, created_at, updated_at, detached_behaviours)
           VALUES ('bot-1', 'acc-1', 'bot-key-1', 'secret', 1, 'web_1', 'B', '', '', '{}', '{}', 1, NULL, 'standard', NULL, 1, 1, '[]')`,
        );
        for (const user of ['talked', 'silent']) {
          await raw.run(
            "INSERT INTO conversations (bot_id, user_id, channel, state, control_state, forgetting, revision, created_at, updated_at) VALUES ('bot-1', $1, 'custom', '{}', 0, 0, 1, 1, 1)",
            [user],
          );
        }
        const talked = await raw.get<{ id: number }>("SELECT id FROM conversations WHERE user_id = 'talked'");
        for (const text of parts) {
          await raw.run("INSERT INTO messages (conversation_id, direction, parts, pending, created_at) VALUES ($1, 'BOT', $2, 0, 1)", [Number(talked!.id), text]);
        }
      } finally {
        await raw.close();
      }
      const store = await open();
      assert.equal(await store.migrate(), migrations.filter((m) => m.version >= 9).length);
      const size = async (user: string) => {
        const conversation = (await store.conversations.byUser('bot-1', user))!;
        // appending nothing returns the size as it stands
        return store.transaction((tx) => tx.conversations.appendMessages(conversation.id, [], 2));
      };
      assert.deepEqual(await size('talked'), { messages: 3, bytes: parts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) });
      assert.deepEqual(await size('silent'), { messages: 0, bytes: 0 });
    });

    test('migration versions are unique and ascending', () => {
      const versions = migrations.map((m) => m.version);
      assert.deepEqual(
        versions,
        [...new Set(versions)].sort((a, b) => a - b),
      );
    });

    if (kind === 'postgres') {
      test('three stores migrating one fresh schema at once all succeed, each version applied once', async () => {
        const stores = await Promise.all([open(), open(), open()]);
        const applied = await Promise.all(stores.map((s) => s.migrate()));
        // Exactly one of them did the work; the others found it done.
        assert.equal(
          applied.reduce((a, b) => a + b, 0),
          migrations.length,
        );
        assert.deepEqual([...applied].sort(), [0, 0, migrations.length].sort());
        assert.deepEqual(await appliedVersions(db), everyVersionOnce());
        assert.deepEqual(await tableNames(db), tablesOf(kind));
        for (const store of stores) await store.ping();
      });

      test('repeated races on fresh schemas never fail (5 rounds of 3 stores)', async () => {
        for (let round = 0; round < 5; round++) {
          const fresh = await createTestDatabase(kind);
          const stores = await Promise.all([0, 1, 2].map(() => openTestStore(fresh)));
          try {
            const applied = await Promise.all(stores.map((s) => s.migrate()));
            assert.equal(
              applied.reduce((a, b) => a + b, 0),
              migrations.length,
              `round ${round}`,
            );
            assert.deepEqual(await appliedVersions(fresh), everyVersionOnce());
          } finally {
            for (const store of stores) await store.close();
            await fresh.drop();
          }
        }
      });
    }
  });
}
