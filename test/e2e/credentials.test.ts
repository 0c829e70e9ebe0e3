// api.md "Credentials": the 401/403 table on real routes, simplified auth, secret rotation,
// token expiry (with a moved clock) and tokens that survive a restart.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { clockFrom } from '../../src/shared/clock.js';
import type { Client } from '../support/client.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { accountToken, botToken, createTenant, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServer, startTestServerOn, type TestServer } from '../support/server.js';

async function expectError(pending: Promise<{ status: number; body: any }>, status: number, code: string, what: string): Promise<void> {
  const res = await pending;
  assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.Code, code, what);
  assert.equal(typeof res.body.Message, 'string', what);
}

const chat = (client: Client, token: string | undefined, headers: Record<string, string> = {}) => client.post('/custom/chat', { UserId: 'cred-user' }, { token, headers });

for (const kind of databaseKinds()) {
  describe(`credentials (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      other = await createTenant(server.client);
    });
    after(() => server.close());

    test('401 TOKEN_MISSING without an Authorization header, on every kind of route', async () => {
      const c = server.client;
      await expectError(c.get('/bots'), 401, 'TOKEN_MISSING', 'GET /bots');
      await expectError(c.get('/custom/config'), 401, 'TOKEN_MISSING', 'GET /custom/config');
      await expectError(chat(c, undefined), 401, 'TOKEN_MISSING', 'POST /custom/chat');
      await expectError(c.get('/bots/backup'), 401, 'TOKEN_MISSING', 'GET /bots/backup');
      await expectError(c.post('/admin/accounts', { Name: 'x', Plan: 'standard' }), 401, 'TOKEN_MISSING', 'POST /admin/accounts');
    });

    test('401 TOKEN_INVALID for garbage and for a header that is not "Bearer <token>"', async () => {
      const c = server.client;
      const headers = [
        'Bearer garbage',
        'Bearer aaa.bbb.ccc',
        `Bearer ${tenant.botToken}x`,
        `Basic ${Buffer.from('user:pass').toString('base64')}`,
        tenant.botToken, // the token without the scheme
        `Token ${tenant.botToken}`,
        `Bearer ${tenant.botToken} extra`,
      ];
      for (const authorization of headers) {
        await expectError(c.get('/custom/config', { headers: { authorization } }), 401, 'TOKEN_INVALID', `config with ${authorization.slice(0, 20)}`);
        await expectError(c.get('/bots', { headers: { authorization } }), 401, 'TOKEN_INVALID', `bots with ${authorization.slice(0, 20)}`);
      }
    });

    test('the scheme name is case-insensitive', async () => {
      const res = await server.client.get('/custom/config', { headers: { authorization: `bearer ${tenant.botToken}` } });
      assert.equal(res.status, 200);
    });

    test('401 TOKEN_INVALID for a bot API key as bearer while simplified auth is off', async () => {
      const c = server.client;
      await expectError(c.get('/custom/config', { token: tenant.botKey }), 401, 'TOKEN_INVALID', 'config');
      await expectError(chat(c, tenant.botKey), 401, 'TOKEN_INVALID', 'chat');
      await expectError(c.get('/bots', { token: tenant.botKey }), 401, 'TOKEN_INVALID', 'bots');
      // nor does the secret, or the account key, open anything
      await expectError(c.get('/custom/config', { token: tenant.botSecret }), 401, 'TOKEN_INVALID', 'secret as bearer');
      await expectError(c.get('/bots', { token: tenant.accountKey }), 401, 'TOKEN_INVALID', 'account key as bearer');
    });

    test('401 TOKEN_INVALID for a well-formed JWT signed with another key', async () => {
      const key = new Uint8Array(crypto.randomBytes(32));
      const now = Math.floor(Date.now() / 1000);
      const forged = await new SignJWT({ k: 'a', acc: tenant.accountId })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(key);
      await expectError(server.client.get('/bots', { token: forged }), 401, 'TOKEN_INVALID', 'forged account token');
      const [header, , signature] = tenant.botToken.split('.');
      const payload = Buffer.from(JSON.stringify({ k: 'b', acc: other.accountId, bot: 'x', sv: 1 })).toString('base64url');
      await expectError(server.client.get('/custom/config', { token: `${header}.${payload}.${signature}` }), 401, 'TOKEN_INVALID', 'tampered payload');
    });

    test('403 TOKEN_SCOPE for a valid token of the wrong kind', async () => {
      const c = server.client;
      await expectError(c.get('/bots', { token: ADMIN_TOKEN }), 403, 'TOKEN_SCOPE', 'admin token on /bots');
      await expectError(chat(c, ADMIN_TOKEN), 403, 'TOKEN_SCOPE', 'admin token on /custom/chat');
      await expectError(c.get('/custom/config', { token: ADMIN_TOKEN }), 403, 'TOKEN_SCOPE', 'admin token on /custom/config');
      await expectError(c.get('/custom/config', { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'account token on /custom/config');
      await expectError(chat(c, tenant.accountToken), 403, 'TOKEN_SCOPE', 'account token on /custom/chat');
      await expectError(c.get('/bots/backup', { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'account token on /bots/backup');
      await expectError(c.get('/bots', { token: tenant.botToken }), 403, 'TOKEN_SCOPE', 'bot token on /bots');
      await expectError(c.get(`/admin/accounts/${tenant.accountId}`, { token: tenant.botToken }), 403, 'TOKEN_SCOPE', 'bot token on /admin');
      await expectError(c.get(`/admin/accounts/${tenant.accountId}`, { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'account token on /admin');
      await expectError(c.post('/admin/accounts', { Name: 'x', Plan: 'standard' }, { token: tenant.botToken }), 403, 'TOKEN_SCOPE', 'bot token on POST /admin');
    });

    test("403 TOKEN_SCOPE for an account token on another account's bot, and nothing changes", async () => {
      const c = server.client;
      const before = await c.get(`/bots/${other.botKey}`, { token: other.accountToken });
      await expectError(c.get(`/bots/${other.botKey}`, { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'GET');
      await expectError(c.put(`/bots/${other.botKey}`, before.body, { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'PUT');
      await expectError(c.patch(`/bots/${other.botKey}/settings`, { simplifiedAuth: true }, { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'PATCH');
      await expectError(c.post(`/bots/${other.botKey}/publish`, undefined, { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'publish');
      await expectError(c.post(`/bots/${other.botKey}/secret`, undefined, { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'secret');
      await expectError(c.delete(`/bots/${other.botKey}`, { token: tenant.accountToken }), 403, 'TOKEN_SCOPE', 'DELETE');
      const afterwards = await c.get(`/bots/${other.botKey}`, { token: other.accountToken });
      assert.equal(afterwards.status, 200);
      assert.deepEqual(afterwards.body, before.body);
      assert.equal((await c.get('/custom/config', { token: other.botToken })).status, 200, "the other bot's secret was not rotated");
    });

    test('simplified auth on lets the bot API key work on the custom channel, at once; off again refuses it', async () => {
      const c = server.client;
      const on = await c.patch(`/bots/${tenant.botKey}/settings`, { simplifiedAuth: true }, { token: tenant.accountToken });
      assert.equal(on.status, 200);
      const config = await c.get('/custom/config', { token: tenant.botKey });
      assert.equal(config.status, 200);
      assert.equal(config.body.Name, 'Support Desk');
      const reply = await chat(c, tenant.botKey);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.Parts[0].Text, 'Welcome to ACME support!');
      // still only the custom channel: the bot key opens no platform route
      await expectError(c.get('/bots', { token: tenant.botKey }), 401, 'TOKEN_INVALID', 'bot key on /bots');
      await expectError(c.get('/bots/backup', { token: tenant.botKey }), 401, 'TOKEN_INVALID', 'bot key on /bots/backup');
      const off = await c.patch(`/bots/${tenant.botKey}/settings`, { simplifiedAuth: false }, { token: tenant.accountToken });
      assert.equal(off.status, 200);
      await expectError(c.get('/custom/config', { token: tenant.botKey }), 401, 'TOKEN_INVALID', 'after turning it off');
    });

    test("secret rotation makes the bot's old tokens 401 TOKEN_INVALID at once; a token from the new secret works", async () => {
      const c = server.client;
      const mine = await createTenant(c);
      const second = await botToken(c, mine.accountKey, mine.botKey, mine.botSecret);
      const rotated = await c.post(`/bots/${mine.botKey}/secret`, undefined, { token: mine.accountToken });
      assert.equal(rotated.status, 200);
      assert.equal(rotated.body.APIKey, mine.botKey);
      assert.equal(typeof rotated.body.APISecret, 'string');
      assert.notEqual(rotated.body.APISecret, mine.botSecret);
      for (const token of [mine.botToken, second]) {
        await expectError(c.get('/custom/config', { token }), 401, 'TOKEN_INVALID', 'old bot token');
        await expectError(chat(c, token), 401, 'TOKEN_INVALID', 'old bot token on chat');
      }
      const oldSecret = await c.post('/authorization/integration', { AccountAPIKey: mine.accountKey, BotAPIKey: mine.botKey, BotAPISecret: mine.botSecret });
      assert.equal(oldSecret.status, 404);
      assert.equal(oldSecret.body.Code, 'BOT_NOT_FOUND');
      const fresh = await botToken(c, mine.accountKey, mine.botKey, rotated.body.APISecret);
      assert.equal((await c.get('/custom/config', { token: fresh })).status, 200);
      // the account token and other bots are not affected
      assert.equal((await c.get('/bots', { token: mine.accountToken })).status, 200);
      assert.equal((await c.get('/custom/config', { token: tenant.botToken })).status, 200);
      const listed = await c.get('/bots', { token: mine.accountToken });
      assert.equal(listed.body.Result[0].APISecret, rotated.body.APISecret);
    });
  });

  describe(`token expiry with a moved clock (${kind})`, () => {
    let now = Date.parse('2026-03-01T12:00:00.000Z');
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind, {}, { clock: clockFrom(() => now) });
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    test('tokens work until 60 minutes have passed, then 401 TOKEN_EXPIRED; a new token works', async () => {
      const c = server.client;
      now += 59 * 60_000;
      assert.equal((await c.get('/bots', { token: tenant.accountToken })).status, 200);
      assert.equal((await c.get('/custom/config', { token: tenant.botToken })).status, 200);
      now += 2 * 60_000;
      await expectError(c.get('/bots', { token: tenant.accountToken }), 401, 'TOKEN_EXPIRED', 'account token');
      await expectError(c.get('/custom/config', { token: tenant.botToken }), 401, 'TOKEN_EXPIRED', 'bot token');
      await expectError(chat(c, tenant.botToken), 401, 'TOKEN_EXPIRED', 'bot token on chat');
      const fresh = await accountToken(c, tenant.accountKey);
      assert.equal((await c.get('/bots', { token: fresh })).status, 200);
      const freshBot = await botToken(c, tenant.accountKey, tenant.botKey, tenant.botSecret);
      assert.equal((await c.get('/custom/config', { token: freshBot })).status, 200);
      now += 61 * 60_000;
      await expectError(c.get('/bots', { token: fresh }), 401, 'TOKEN_EXPIRED', 'the fresh token in turn');
    });
  });

  describe(`tokens survive a restart (${kind})`, () => {
    let database: TestDatabase;
    let first: TestServer | null = null;
    let second: TestServer | null = null;
    before(async () => {
      database = await createTestDatabase(kind);
    });
    after(async () => {
      await first?.close();
      await second?.close();
      await database.drop();
    });

    test('account and bot tokens issued before a restart still work after it', async () => {
      first = await startTestServerOn(database);
      const tenant = await createTenant(first.client);
      await first.close();
      first = null;
      second = await startTestServerOn(database);
      const bots = await second.client.get('/bots', { token: tenant.accountToken });
      assert.equal(bots.status, 200);
      assert.deepEqual(
        bots.body.Result.map((b: any) => b.APIKey),
        [tenant.botKey],
      );
      const reply = await chat(second.client, tenant.botToken);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.Parts[0].Text, 'Welcome to ACME support!');
      await expectError(second.client.get('/bots', { headers: { authorization: 'Bearer garbage' } }), 401, 'TOKEN_INVALID', 'garbage after restart');
    });
  });
}
