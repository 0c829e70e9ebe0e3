// Hardening finding 9, secrets at rest: what the database holds is no working credential. Bot
// secrets and the token signing key are encrypted under the server key (COLLOQUY_SECRET_KEY or
// <data dir>/secret.key), account keys and share codes are hashed; a node with another key
// refuses to start instead of serving garbage.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { SIGNING_KEY_META } from '../../src/auth/tokens.js';
import { StartupError } from '../../src/main.js';
import { openRaw } from '../store/store-fixtures.js';
import { chatOk } from '../support/chat-kit.js';
import { cliEnv, runCli } from '../support/cli.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { botToken, createTenant } from '../support/fixtures.js';
import { startTestServerOn } from '../support/server.js';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const MISMATCH = 'the secret key does not match this database: set COLLOQUY_SECRET_KEY to the value the other nodes use';

for (const kind of databaseKinds()) {
  describe(`secrets at rest (${kind})`, () => {
    const databases: TestDatabase[] = [];
    const fresh = async () => {
      const database = await createTestDatabase(kind);
      databases.push(database);
      return database;
    };
    after(async () => {
      for (const database of databases) await database.drop();
    });

    test('the raw rows hold no bot secret, signing key, account key or share code in clear; the API still shows what it must', async () => {
      const database = await fresh();
      const server = await startTestServerOn(database);
      try {
        const tenant = await createTenant(server.client);
        await chatOk(server, tenant.botToken, { UserId: 'sharer' });
        const shared = await server.client.post('/custom/share', { UserId: 'sharer', Mode: 'view', Hours: 1 }, { token: tenant.botToken });
        assert.equal(shared.status, 200);
        const code = (shared.body.Url as string).split('/share/')[1];
        const signingKey = (await server.running.store.meta.getSecret(SIGNING_KEY_META))!;
        assert.ok(signingKey.length >= 40);

        const raw = await openRaw(database);
        try {
          const tables = {
            accounts: await raw.all<Record<string, unknown>>('SELECT * FROM accounts'),
            bots: await raw.all<Record<string, unknown>>('SELECT * FROM bots'),
            meta: await raw.all<Record<string, unknown>>('SELECT * FROM meta'),
            shares: await raw.all<Record<string, unknown>>('SELECT * FROM shares'),
          };
          const everything = JSON.stringify(tables);
          for (const [what, secret] of Object.entries({ 'bot secret': tenant.botSecret, 'signing key': signingKey, 'account key': tenant.accountKey, 'share code': code })) {
            assert.ok(!everything.includes(secret), `${what} appears in clear in the database`);
          }
          assert.deepEqual(
            tables.accounts.map((a) => a.api_key_hash),
            [sha256(tenant.accountKey)],
          );
          assert.deepEqual(
            tables.shares.map((s) => s.code_hash),
            [sha256(code)],
          );
          assert.match(String(tables.bots[0].api_secret), /^v1:[\w-]{40,}$/);
          assert.match(String(tables.meta.find((m) => m.key === SIGNING_KEY_META)!.value), /^v1:[\w-]{40,}$/);
        } finally {
          await raw.close();
        }
        // GET /bots still returns the secret in clear (api.md 11), the share link still opens
        const listed = await server.client.get('/bots', { token: tenant.accountToken });
        assert.equal(listed.body.Result[0].APISecret, tenant.botSecret);
        assert.equal((await server.client.get(`/share/${code}/api/conversation`)).status, 200);
        assert.equal((await server.client.get(`/share/${sha256(code)}/api/conversation`)).status, 404, 'the stored hash opens nothing');
      } finally {
        await server.close();
      }
    });

    test('without COLLOQUY_SECRET_KEY the key is <data dir>/secret.key, mode 0600, and a restart with it reads everything back', async () => {
      const database = await fresh();
      const first = await startTestServerOn(database);
      const tenant = await createTenant(first.client);
      await first.close();
      const file = path.join(database.dataDir, 'secret.key');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      const again = await startTestServerOn(database);
      try {
        assert.equal((await again.client.get('/custom/config', { token: tenant.botToken })).status, 200, 'a token signed before the restart');
        assert.equal((await again.client.get('/bots', { token: tenant.accountToken })).body.Result[0].APISecret, tenant.botSecret);
      } finally {
        await again.close();
      }
    });

    test('COLLOQUY_SECRET_KEY: no key file is made; hex and base64 of the same bytes are one key; another key refuses to start', async () => {
      const database = await fresh();
      const bytes = crypto.randomBytes(32);
      const first = await startTestServerOn(database, { COLLOQUY_SECRET_KEY: bytes.toString('hex') });
      const tenant = await createTenant(first.client);
      await first.close();
      assert.equal(fs.existsSync(path.join(database.dataDir, 'secret.key')), false);

      const same = await startTestServerOn(database, { COLLOQUY_SECRET_KEY: bytes.toString('base64') });
      try {
        assert.equal((await same.client.get('/bots', { token: tenant.accountToken })).body.Result[0].APISecret, tenant.botSecret);
      } finally {
        await same.close();
      }
      await assert.rejects(startTestServerOn(database, { COLLOQUY_SECRET_KEY: crypto.randomBytes(32).toString('hex') }), (error: Error) => {
        assert.ok(error instanceof StartupError, String(error));
        assert.ok(error.message.startsWith(MISMATCH), error.message);
        return true;
      });
      // nor does the key file (made now, a different key) open it
      await assert.rejects(startTestServerOn(database), /the secret key does not match this database/);
    });

    test('a node started with a wrong COLLOQUY_SECRET_KEY refuses to start (exit 1, the message on stderr); the right one starts', async () => {
      const database = await fresh();
      const passphrase = 'correct horse battery staple';
      const first = await startTestServerOn(database, { COLLOQUY_SECRET_KEY: passphrase });
      const tenant = await createTenant(first.client);
      await first.close();
      const res = await runCli(['serve'], cliEnv(database, { PORT: '0', COLLOQUY_DEMO: '0', COLLOQUY_SECRET_KEY: 'a different passphrase entirely' }), 60_000);
      assert.equal(res.code, 1, res.stdout + res.stderr);
      assert.match(res.stderr, /colloquy: refusing to start: the secret key does not match this database: set COLLOQUY_SECRET_KEY to the value the other nodes use/);
      assert.doesNotMatch(res.stdout, /listening on/);
      const right = await startTestServerOn(database, { COLLOQUY_SECRET_KEY: passphrase });
      try {
        const token = await botToken(right.client, tenant.accountKey, tenant.botKey, tenant.botSecret);
        assert.equal((await right.client.get('/custom/config', { token })).status, 200);
      } finally {
        await right.close();
      }
    });
  });
}
