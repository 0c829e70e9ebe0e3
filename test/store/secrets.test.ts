// Secrets at rest in the store: migration 6 converts a database written in clear (hashes account
// keys and share codes, encrypts bot secrets and the signing key) and the repositories read it
// back; a store with another key refuses the database before touching it.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { SecretBox, SecretKeyMismatch } from '../../src/auth/secret-box.js';
import { SIGNING_KEY_META } from '../../src/auth/tokens.js';
import { openStore, type Store } from '../../src/store/index.js';
import { migrations } from '../../src/store/migrations/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { openRaw } from './store-fixtures.js';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const BEFORE = 5; // the last version that stored everything in clear

/** A database as a server before this change left it: migrations 1-5 and rows in clear. */
async function clearDatabase(db: TestDatabase): Promise<void> {
  const raw = await openRaw(db);
  try {
    await raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const m of migrations.filter((m) => m.version <= BEFORE)) {
      await raw.exec(raw.dialect === 'sqlite' ? m.sqlite : m.postgres);
      await raw.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, 'then']);
    }
    await raw.run("INSERT INTO accounts (id, name, plan, packages, api_key, created_at) VALUES ('acc-1', 'Old', 'standard', '[]', 'acc_clear-key', 1)");
    await raw.run(
      `INSERT INTO bots (id, account_id, api_key, api_secret, secret_version, web_key, name, description, avatar, settings, draft,
         version, live_version_id, role, master_bot_id, created_at, updated_at, detached_behaviours)
       VALUES ('bot-1', 'acc-1', 'bot-key-1', 'clear-bot-secret', 1, 'web_1', 'B', '', '', '{}', '{}', 1, NULL, 'standard', NULL, 1, 1, '[]')`,
    );
    await raw.run("INSERT INTO conversations (bot_id, user_id, channel, state, control_state, forgetting, revision, created_at, updated_at) VALUES ('bot-1', 'u', 'custom', '{}', 0, 0, 1, 1, 1)");
    const conversation = await raw.get<{ id: number }>('SELECT id FROM conversations');
    await raw.run("INSERT INTO shares (code, conversation_id, mode, expires_at, handed_back, created_at) VALUES ('clear-share-code', $1, 'auto', 5, 0, 1)", [Number(conversation!.id)]);
    await raw.run("INSERT INTO meta (key, value) VALUES ($1, 'clear-signing-key'), ('other', 'kept')", [SIGNING_KEY_META]);
  } finally {
    await raw.close();
  }
}

const rawRows = async (db: TestDatabase) => {
  const raw = await openRaw(db);
  try {
    return JSON.stringify(await Promise.all(['accounts', 'bots', 'shares', 'meta'].map((t) => raw.all(`SELECT * FROM ${t}`))));
  } finally {
    await raw.close();
  }
};

for (const kind of databaseKinds()) {
  describe(`store secrets at rest (${kind})`, () => {
    let db: TestDatabase;
    const opened: Store[] = [];
    const open = async (secrets = new SecretBox(crypto.randomBytes(32))) => {
      const store = await openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, secrets });
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

    test('migration 6 hashes and encrypts the rows a clear database has; the repositories read them back', async () => {
      await clearDatabase(db);
      const store = await open();
      assert.equal(await store.migrate(), migrations.length - BEFORE);
      const rows = await rawRows(db);
      for (const clear of ['acc_clear-key', 'clear-bot-secret', 'clear-share-code', 'clear-signing-key']) assert.ok(!rows.includes(clear), clear);
      assert.ok(rows.includes(sha256('acc_clear-key')));
      assert.ok(rows.includes(sha256('clear-share-code')));

      const account = await store.accounts.byApiKey('acc_clear-key');
      assert.deepEqual(account, { id: 'acc-1', name: 'Old', plan: 'standard', packages: [], keyVersion: 1, createdAt: 1 });
      assert.equal((await store.bots.byId('bot-1'))!.apiSecret, 'clear-bot-secret');
      assert.equal((await store.bots.withAccount('bot-1'))!.account.keyVersion, 1);
      assert.equal(await store.meta.getSecret(SIGNING_KEY_META), 'clear-signing-key');
      assert.equal(await store.meta.get('other'), 'kept');
      const share = await store.shares.byCode('clear-share-code');
      assert.equal(share?.codeHash, sha256('clear-share-code'));
      assert.deepEqual(
        (await store.shares.expiredAuto(10)).map((s) => s.codeHash),
        [sha256('clear-share-code')],
      );
      assert.equal(await store.shares.markHandedBack(share!.codeHash), true);
    });

    test('a store with another key: migrate throws SecretKeyMismatch and nothing is written; the right key still works', async () => {
      const key = new SecretBox(crypto.randomBytes(32));
      const first = await open(key);
      await first.migrate();
      await first.meta.getOrInitSecret(SIGNING_KEY_META, 'signing');
      const before = await rawRows(db);
      const wrong = await open();
      await assert.rejects(wrong.migrate(), (error: Error) => {
        assert.ok(error instanceof SecretKeyMismatch);
        assert.equal(error.message, 'the secret key does not match this database: set COLLOQUY_SECRET_KEY to the value the other nodes use');
        return true;
      });
      assert.equal(await rawRows(db), before);
      await assert.rejects(wrong.meta.getSecret(SIGNING_KEY_META), 'another key cannot decrypt');
      const again = await open(key);
      assert.equal(await again.migrate(), 0);
      assert.equal(await again.meta.getSecret(SIGNING_KEY_META), 'signing');
    });

    test('a clear database migrated by a store with a wrong key already recorded is refused before any row changes', async () => {
      await clearDatabase(db);
      const raw = await openRaw(db);
      await raw.run("INSERT INTO meta (key, value) VALUES ('secret_key_check', 'v1:someone-else')");
      await raw.close();
      const before = await rawRows(db);
      await assert.rejects((await open()).migrate(), SecretKeyMismatch);
      assert.equal(await rawRows(db), before, 'the migration rolled back whole');
    });
  });
}
