// Hardening finding 9, tokens: a token must carry `exp`; an account moved to the free plan loses
// the integration API at once (not only new tokens); account keys can be rotated, which revokes
// every token issued with the old key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { SIGNING_KEY_META } from '../../src/auth/tokens.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, botToken, createTenant, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

const admin = { token: ADMIN_TOKEN };

for (const kind of databaseKinds()) {
  describe(`account tokens, plans and key rotation (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(() => server.close());

    const expectError = async (pending: Promise<{ status: number; body: any }>, status: number, code: string, what: string) => {
      const res = await pending;
      assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.Code, code, what);
    };

    /** Signs `payload` with the server's own token key (decrypted from the database). */
    const signWithServerKey = async (payload: Record<string, unknown>, exp: boolean) => {
      const keyText = await server.running.store.meta.getSecret(SIGNING_KEY_META);
      assert.ok(keyText, 'the server has a signing key');
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now);
      if (exp) jwt.setExpirationTime(now + 3600);
      return jwt.sign(new Uint8Array(Buffer.from(keyText, 'base64')));
    };

    test('a token signed with the right key but without exp → 401 TOKEN_INVALID; the same with exp works', async () => {
      const tenant = await createTenant(server.client);
      const account = { k: 'a', acc: tenant.accountId, kv: 1 };
      assert.equal((await server.client.get('/bots', { token: await signWithServerKey(account, true) })).status, 200, 'the test signs like the server');
      await expectError(server.client.get('/bots', { token: await signWithServerKey(account, false) }), 401, 'TOKEN_INVALID', 'account token without exp');
      const bot = (await server.client.get('/bots', { token: tenant.accountToken })).body.Result[0];
      assert.equal(bot.APIKey, tenant.botKey);
      const botId = (await server.running.store.bots.byApiKey(tenant.botKey))!.id;
      const botClaims = { k: 'b', acc: tenant.accountId, bot: botId, sv: 1, kv: 1 };
      assert.equal((await server.client.get('/custom/config', { token: await signWithServerKey(botClaims, true) })).status, 200);
      await expectError(server.client.get('/custom/config', { token: await signWithServerKey(botClaims, false) }), 401, 'TOKEN_INVALID', 'bot token without exp');
    });

    test('an account moved to the free plan: its account token, bot token and bot key bearer get 403 PLAN_FORBIDDEN; back to standard they work', async () => {
      const tenant = await createTenant(server.client);
      const on = await server.client.patch(`/bots/${tenant.botKey}/settings`, { simplifiedAuth: true }, { token: tenant.accountToken });
      assert.equal(on.status, 200);
      assert.equal((await server.client.patch(`/admin/accounts/${tenant.accountId}`, { Plan: 'free' }, admin)).status, 200);

      await expectError(server.client.get('/bots', { token: tenant.accountToken }), 403, 'PLAN_FORBIDDEN', 'account token on /bots');
      await expectError(server.client.get('/account/usage', { token: tenant.accountToken }), 403, 'PLAN_FORBIDDEN', 'account token on /account/usage');
      await expectError(server.client.get('/custom/config', { token: tenant.botToken }), 403, 'PLAN_FORBIDDEN', 'bot token on /custom/config');
      await expectError(server.client.post('/custom/chat', { UserId: 'u' }, { token: tenant.botToken }), 403, 'PLAN_FORBIDDEN', 'bot token on /custom/chat');
      await expectError(server.client.get('/custom/config', { token: tenant.botKey }), 403, 'PLAN_FORBIDDEN', 'bot key as bearer');
      await expectError(server.client.get('/apihook/config', { token: tenant.botKey }), 403, 'PLAN_FORBIDDEN', 'bot key on /apihook');
      // the admin routes do not care about the account's plan
      const read = await server.client.get(`/admin/accounts/${tenant.accountId}`, admin);
      assert.equal(read.status, 200);
      assert.equal(read.body.Plan, 'free');

      assert.equal((await server.client.patch(`/admin/accounts/${tenant.accountId}`, { Plan: 'standard' }, admin)).status, 200);
      assert.equal((await server.client.get('/bots', { token: tenant.accountToken })).status, 200);
      assert.equal((await server.client.get('/custom/config', { token: tenant.botToken })).status, 200);
      assert.equal((await server.client.get('/custom/config', { token: tenant.botKey })).status, 200);
    });

    const assertRotated = async (tenant: Tenant, res: { status: number; body: any }, oldBotToken: string) => {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body), ['AccountAPIKey']);
      const fresh = res.body.AccountAPIKey as string;
      assert.match(fresh, /^acc_\S{16,}$/);
      assert.notEqual(fresh, tenant.accountKey);
      // the old key gets no token any more
      await expectError(server.client.post('/authorization/integration', { AccountAPIKey: tenant.accountKey }), 404, 'ACCOUNT_NOT_FOUND', 'old key');
      // tokens issued with the old key stop working at once: account and bot tokens
      await expectError(server.client.get('/bots', { token: tenant.accountToken }), 401, 'TOKEN_INVALID', 'old account token');
      await expectError(server.client.get('/custom/config', { token: oldBotToken }), 401, 'TOKEN_INVALID', 'old bot token');
      // the new key works, for account and bot tokens
      const token = await accountToken(server.client, fresh);
      assert.equal((await server.client.get('/bots', { token })).status, 200);
      const bot = await botToken(server.client, fresh, tenant.botKey, tenant.botSecret);
      assert.equal((await server.client.get('/custom/config', { token: bot })).status, 200);
      return { fresh, token };
    };

    test('POST /admin/accounts/{id}/key (admin token) → 200 {AccountAPIKey}: old key 404, old tokens 401, new key works', async () => {
      const tenant = await createTenant(server.client);
      const res = await server.client.post(`/admin/accounts/${tenant.accountId}/key`, undefined, admin);
      await assertRotated(tenant, res, tenant.botToken);
      await expectError(server.client.post('/admin/accounts/00000000-0000-4000-8000-000000000000/key', undefined, admin), 404, 'ACCOUNT_NOT_FOUND', 'unknown account');
      await expectError(server.client.post(`/admin/accounts/${tenant.accountId}/key`, undefined, { token: tenant.botToken }), 401, 'TOKEN_INVALID', 'old bot token on admin');
    });

    test('POST /account/key (account token) → 200 {AccountAPIKey}; twice in a row, only the latest key works', async () => {
      const tenant = await createTenant(server.client);
      const res = await server.client.post('/account/key', undefined, { token: tenant.accountToken });
      const { fresh, token } = await assertRotated(tenant, res, tenant.botToken);
      const again = await server.client.post('/account/key', undefined, { token });
      assert.equal(again.status, 200);
      await expectError(server.client.post('/authorization/integration', { AccountAPIKey: fresh }), 404, 'ACCOUNT_NOT_FOUND', 'second-to-last key');
      await expectError(server.client.get('/bots', { token }), 401, 'TOKEN_INVALID', 'token of the second-to-last key');
      assert.equal((await server.client.get('/bots', { token: await accountToken(server.client, again.body.AccountAPIKey) })).status, 200);
    });

    test('POST /account/key refuses bot tokens and the admin token (403 TOKEN_SCOPE); the key stays', async () => {
      const tenant = await createTenant(server.client);
      await expectError(server.client.post('/account/key', undefined, { token: tenant.botToken }), 403, 'TOKEN_SCOPE', 'bot token');
      await expectError(server.client.post('/account/key', undefined, admin), 403, 'TOKEN_SCOPE', 'admin token');
      assert.equal((await server.client.post('/authorization/integration', { AccountAPIKey: tenant.accountKey })).status, 200);
    });

    test('the account key is shown at creation and rotation only: GET and PATCH of the account leave it out', async () => {
      const tenant = await createTenant(server.client);
      const read = await server.client.get(`/admin/accounts/${tenant.accountId}`, admin);
      assert.equal(read.status, 200);
      assert.deepEqual(Object.keys(read.body).sort(), ['AccountId', 'AuditDays', 'Name', 'Packages', 'Plan', 'Usage']);
      const patched = await server.client.patch(`/admin/accounts/${tenant.accountId}`, { Name: 'Renamed' }, admin);
      assert.deepEqual(Object.keys(patched.body).sort(), ['AccountId', 'Name', 'Packages', 'Plan']);
    });
  });
}
