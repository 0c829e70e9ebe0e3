// api.md section 1: POST /authorization/integration, every status code of its table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createAccount, createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

const TOKEN = '/authorization/integration';

function assertTokenReply(body: any): void {
  assert.deepEqual(Object.keys(body).sort(), ['expires', 'token']);
  assert.equal(typeof body.token, 'string');
  assert.ok(body.token.length > 20, 'the token is a long opaque string');
  assert.equal(body.expires, 60);
}

for (const kind of databaseKinds()) {
  describe(`token endpoint (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      other = await createTenant(server.client);
    });
    after(() => server.close());

    const post = (body: unknown) => server.client.post(TOKEN, body);

    test('200 with an account token: it opens the platform API', async () => {
      const res = await post({ AccountAPIKey: tenant.accountKey });
      assert.equal(res.status, 200);
      assertTokenReply(res.body);
      const bots = await server.client.get('/bots', { token: res.body.token });
      assert.equal(bots.status, 200);
      assert.deepEqual(
        bots.body.Result.map((b: any) => b.APIKey),
        [tenant.botKey],
      );
    });

    test('200 with a bot token: it opens the custom channel of that bot', async () => {
      const res = await post({ AccountAPIKey: tenant.accountKey, BotAPIKey: tenant.botKey, BotAPISecret: tenant.botSecret });
      assert.equal(res.status, 200);
      assertTokenReply(res.body);
      const config = await server.client.get('/custom/config', { token: res.body.token });
      assert.equal(config.status, 200);
      assert.equal(config.body.Name, 'Support Desk');
    });

    test('an account token is not a bot token and the other way round', async () => {
      const account = await post({ AccountAPIKey: tenant.accountKey });
      const bot = await post({ AccountAPIKey: tenant.accountKey, BotAPIKey: tenant.botKey, BotAPISecret: tenant.botSecret });
      assert.notEqual(account.body.token, bot.body.token);
      assert.equal((await server.client.get('/custom/config', { token: account.body.token })).body.Code, 'TOKEN_SCOPE');
      assert.equal((await server.client.get('/bots', { token: bot.body.token })).body.Code, 'TOKEN_SCOPE');
    });

    test('request field names are case-insensitive', async () => {
      const lower = await post({ accountapikey: tenant.accountKey });
      assert.equal(lower.status, 200);
      assertTokenReply(lower.body);
      const mixed = await post({ ACCOUNTAPIKEY: tenant.accountKey, botApiKey: tenant.botKey, botapisecret: tenant.botSecret });
      assert.equal(mixed.status, 200);
      assertTokenReply(mixed.body);
      const config = await server.client.get('/custom/config', { token: mixed.body.token });
      assert.equal(config.status, 200);
    });

    test('400 MISSING_FIELD without AccountAPIKey', async () => {
      for (const body of [{}, { BotAPIKey: tenant.botKey, BotAPISecret: tenant.botSecret }, { AccountAPIKey: '' }]) {
        const res = await post(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.Code, 'MISSING_FIELD');
        assert.equal(typeof res.body.Message, 'string');
      }
    });

    test('400 MISSING_FIELD with only one of BotAPIKey and BotAPISecret', async () => {
      const keyOnly = await post({ AccountAPIKey: tenant.accountKey, BotAPIKey: tenant.botKey });
      assert.equal(keyOnly.status, 400);
      assert.equal(keyOnly.body.Code, 'MISSING_FIELD');
      const secretOnly = await post({ AccountAPIKey: tenant.accountKey, BotAPISecret: tenant.botSecret });
      assert.equal(secretOnly.status, 400);
      assert.equal(secretOnly.body.Code, 'MISSING_FIELD');
    });

    test('404 ACCOUNT_NOT_FOUND for an unknown account key', async () => {
      const res = await post({ AccountAPIKey: 'acc_doesNotExist0000000000000000' });
      assert.equal(res.status, 404);
      assert.equal(res.body.Code, 'ACCOUNT_NOT_FOUND');
      const withBot = await post({ AccountAPIKey: 'acc_nope', BotAPIKey: tenant.botKey, BotAPISecret: tenant.botSecret });
      assert.equal(withBot.status, 404);
      assert.equal(withBot.body.Code, 'ACCOUNT_NOT_FOUND');
    });

    test('404 BOT_NOT_FOUND, one answer for an unknown bot, a bot of another account and a wrong secret', async () => {
      const cases = [
        { AccountAPIKey: tenant.accountKey, BotAPIKey: '00000000-0000-4000-8000-000000000000', BotAPISecret: tenant.botSecret },
        { AccountAPIKey: tenant.accountKey, BotAPIKey: other.botKey, BotAPISecret: other.botSecret },
        { AccountAPIKey: tenant.accountKey, BotAPIKey: tenant.botKey, BotAPISecret: `${tenant.botSecret}x` },
        { AccountAPIKey: tenant.accountKey, BotAPIKey: tenant.botKey, BotAPISecret: other.botSecret },
      ];
      const answers = [];
      for (const body of cases) {
        const res = await post(body);
        assert.equal(res.status, 404, JSON.stringify(body));
        answers.push(res.body);
      }
      assert.equal(answers[0].Code, 'BOT_NOT_FOUND');
      for (const answer of answers) assert.deepEqual(answer, answers[0], 'the three cases cannot be told apart');
    });

    test('403 PLAN_FORBIDDEN for a free account, for account and bot tokens', async () => {
      const free = await createAccount(server.client, 'free');
      const res = await post({ AccountAPIKey: free.AccountAPIKey });
      assert.equal(res.status, 403);
      assert.equal(res.body.Code, 'PLAN_FORBIDDEN');
      // A bot created while the plan was standard gets no bot token once the plan is free.
      const admin = { token: ADMIN_TOKEN };
      const account = await createAccount(server.client, 'standard');
      const token = (await post({ AccountAPIKey: account.AccountAPIKey })).body.token;
      const bot = await server.client.post('/bots', supportBot(), { token });
      assert.equal(bot.status, 201);
      assert.equal((await server.client.patch(`/admin/accounts/${account.AccountId}`, { Plan: 'free' }, admin)).status, 200);
      const botRes = await post({ AccountAPIKey: account.AccountAPIKey, BotAPIKey: bot.body.APIKey, BotAPISecret: bot.body.APISecret });
      assert.equal(botRes.status, 403);
      assert.equal(botRes.body.Code, 'PLAN_FORBIDDEN');
    });

    test('a repeated request gives a different token, and the old one still works', async () => {
      const body = { AccountAPIKey: tenant.accountKey, BotAPIKey: tenant.botKey, BotAPISecret: tenant.botSecret };
      const first = await post(body);
      const second = await post(body);
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.notEqual(first.body.token, second.body.token);
      for (const token of [first.body.token, second.body.token]) {
        const res = await server.client.get('/custom/config', { token });
        assert.equal(res.status, 200);
      }
      const a1 = await post({ AccountAPIKey: tenant.accountKey });
      const a2 = await post({ AccountAPIKey: tenant.accountKey });
      assert.notEqual(a1.body.token, a2.body.token);
      assert.equal((await server.client.get('/bots', { token: a1.body.token })).status, 200);
      assert.equal((await server.client.get('/bots', { token: a2.body.token })).status, 200);
    });

    test('the endpoint needs no Authorization header and ignores a bad one', async () => {
      const res = await server.client.post(TOKEN, { AccountAPIKey: tenant.accountKey }, { headers: { authorization: 'Bearer garbage' } });
      assert.equal(res.status, 200);
      assertTokenReply(res.body);
    });
  });
}

// Issue 22 item 9: guessing account keys, bot keys and secrets is throttled like guessing tokens
// (60 failures per client address, 10 per credential, a minute), with the Xenioo 404s below that.
for (const kind of databaseKinds()) {
  describe(`token endpoint: failed attempts are throttled (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_RATE_LIMIT_PER_MINUTE: '6000', COLLOQUY_TRUST_PROXY: 'loopback' });
      tenant = await createTenant(server.client);
      other = await createTenant(server.client);
    });
    after(() => server.close());

    const postFrom = (address: string, body: unknown) => server.client.post(TOKEN, body, { headers: { 'x-forwarded-for': address } });
    const codesOf = (answers: Array<{ status: number; body: any }>) => answers.map((a) => `${a.status} ${a.body.Code}`);

    test('wrong account keys from one address: 60 answers 404, then 429 with Retry-After, even for the right key; another address is served', async () => {
      const answers = [];
      for (let i = 0; i < 62; i++) answers.push(await postFrom('203.0.113.20', { AccountAPIKey: `acc_guess${i}` }));
      assert.deepEqual(codesOf(answers), [...Array(60).fill('404 ACCOUNT_NOT_FOUND'), '429 RATE_LIMITED', '429 RATE_LIMITED']);
      assert.ok(Number(answers[60].headers.get('retry-after')) >= 1);
      const right = await postFrom('203.0.113.20', { AccountAPIKey: tenant.accountKey });
      assert.equal(right.status, 429, 'checked before the key is looked up');
      const elsewhere = await postFrom('203.0.113.21', { AccountAPIKey: tenant.accountKey });
      assert.equal(elsewhere.status, 200, elsewhere.text);
    });

    test('one wrong account key from many addresses: 10 answers 404, then 429; the right key from another address is served', async () => {
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await postFrom(`198.51.100.${i + 1}`, { AccountAPIKey: 'acc_theSameGuess' }));
      assert.deepEqual(codesOf(answers), [...Array(10).fill('404 ACCOUNT_NOT_FOUND'), '429 RATE_LIMITED', '429 RATE_LIMITED']);
      const right = await postFrom('198.51.100.99', { AccountAPIKey: tenant.accountKey });
      assert.equal(right.status, 200, right.text);
    });

    test('wrong bot secrets for one bot: 10 answers 404, then 429 even for the right secret; the account key and other bots are served', async () => {
      const guess = (i: number, secret: string) => postFrom(`192.0.2.${i + 1}`, { AccountAPIKey: tenant.accountKey, BotAPIKey: tenant.botKey, BotAPISecret: secret });
      const answers = [];
      for (let i = 0; i < 11; i++) answers.push(await guess(i, `wrong-secret-${i}`));
      answers.push(await guess(50, tenant.botSecret));
      assert.deepEqual(codesOf(answers), [...Array(10).fill('404 BOT_NOT_FOUND'), '429 RATE_LIMITED', '429 RATE_LIMITED']);
      const account = await postFrom('192.0.2.99', { AccountAPIKey: tenant.accountKey });
      assert.equal(account.status, 200, 'wrong secrets do not lock the account key');
      const otherBot = await postFrom('192.0.2.99', { AccountAPIKey: other.accountKey, BotAPIKey: other.botKey, BotAPISecret: other.botSecret });
      assert.equal(otherBot.status, 200, otherBot.text);
    });

    test('a bot key sent with another account key cannot lock the bot out for its owner', async () => {
      const victim = await createTenant(server.client);
      for (let i = 0; i < 11; i++) {
        const res = await postFrom(`192.0.2.${100 + i}`, { AccountAPIKey: other.accountKey, BotAPIKey: victim.botKey, BotAPISecret: `x${i}` });
        assert.equal(res.status, i < 10 ? 404 : 429);
      }
      const owner = await postFrom('192.0.2.200', { AccountAPIKey: victim.accountKey, BotAPIKey: victim.botKey, BotAPISecret: victim.botSecret });
      assert.equal(owner.status, 200, owner.text);
    });
  });
}
