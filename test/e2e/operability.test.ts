// api.md section 15 (health, metrics, OpenAPI, docs) and the per-token rate limits of "Conventions".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { botToken, createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Sum of the samples of one metric in Prometheus text, by label set. */
function samples(text: string, metric: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${metric}(\\{[^}]*\\})?\\s+(\\S+)$`).exec(line);
    if (match) out.set(match[1] ?? '', Number(match[2]));
  }
  return out;
}
const total = (values: Map<string, number>) => [...values.values()].reduce((a, b) => a + b, 0);

for (const kind of databaseKinds()) {
  describe(`operability (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    test('GET /health → 200 {Status: "ok"} without a token', async () => {
      const res = await server.client.get('/health');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { Status: 'ok' });
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    });

    test('GET /metrics is Prometheus text with colloquy_turns_total and colloquy_conversations that count', async () => {
      const before = await server.client.get('/metrics');
      assert.equal(before.status, 200);
      assert.match(before.headers.get('content-type') ?? '', /^text\/plain/);
      assert.match(before.text, /^# HELP colloquy_turns_total /m);
      assert.match(before.text, /^# TYPE colloquy_turns_total counter$/m);
      assert.match(before.text, /^# TYPE colloquy_conversations gauge$/m);
      assert.match(before.text, /^# TYPE colloquy_turn_duration_seconds histogram$/m);
      const turnsBefore = total(samples(before.text, 'colloquy_turns_total'));
      const conversationsBefore = total(samples(before.text, 'colloquy_conversations'));

      for (const userId of ['m1', 'm2']) {
        const res = await server.client.post('/custom/chat', { UserId: userId }, { token: tenant.botToken });
        assert.equal(res.status, 200);
      }
      await server.client.post('/custom/chat', { UserId: 'm1', Text: 'hello?' }, { token: tenant.botToken });

      const afterwards = await server.client.get('/metrics');
      assert.equal(total(samples(afterwards.text, 'colloquy_turns_total')), turnsBefore + 3);
      const conversations = samples(afterwards.text, 'colloquy_conversations');
      assert.equal(total(conversations), conversationsBefore + 2);
      assert.equal(conversations.get('{state="bot"}'), conversationsBefore + 2);
    });

    test('GET /openapi.json is OpenAPI 3.1 and lists /custom/chat and /authorization/integration', async () => {
      const res = await server.client.get('/openapi.json');
      assert.equal(res.status, 200);
      assert.match(res.body.openapi, /^3\.1\./);
      assert.equal(typeof res.body.info.title, 'string');
      assert.ok(res.body.paths['/custom/chat'].post, 'POST /custom/chat');
      assert.ok(res.body.paths['/authorization/integration'].post, 'POST /authorization/integration');
      assert.ok(res.body.paths['/bots'].get && res.body.paths['/bots'].post, '/bots');
      assert.ok(res.body.paths['/admin/accounts'].post, '/admin/accounts');
    });

    test('GET /docs renders the API documentation (HTML, after redirects)', async () => {
      const res = await fetch(`${server.url}/docs`, { redirect: 'follow' });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const html = await res.text();
      assert.match(html, /<html/i);
      assert.match(html, /swagger/i);
    });
  });

  describe(`rate limits per token (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_RATE_LIMIT_PER_MINUTE: '3' });
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    const limits = (res: { headers: Headers }) => ({
      limit: res.headers.get('x-ratelimit-limit'),
      remaining: res.headers.get('x-ratelimit-remaining'),
      reset: Number(res.headers.get('x-ratelimit-reset')),
    });

    test('every authenticated answer carries X-RateLimit-*; the 4th request of a token is 429 RATE_LIMITED with Retry-After', async () => {
      const c = server.client;
      const token = await botToken(c, tenant.accountKey, tenant.botKey, tenant.botSecret);
      // three requests of one token, on different routes: the limit is per token, not per route
      const calls = [() => c.get('/custom/config', { token }), () => c.post('/custom/chat', { UserId: 'rl' }, { token }), () => c.get('/custom/values?userid=rl', { token })];
      for (const [i, call] of calls.entries()) {
        const res = await call();
        assert.equal(res.status, 200, res.text);
        const seen = limits(res);
        assert.equal(seen.limit, '3');
        assert.equal(seen.remaining, String(2 - i));
        assert.ok(Number.isInteger(seen.reset) && seen.reset >= 1 && seen.reset <= 60, `reset ${seen.reset}`);
      }
      const refused = await c.post('/custom/chat', { UserId: 'rl', Text: 'one more' }, { token, headers: { 'x-request-id': 'rl-4' } });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.Code, 'RATE_LIMITED');
      assert.equal(typeof refused.body.Message, 'string');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers.get('retry-after')}`);
      assert.equal(limits(refused).limit, '3');
      assert.equal(limits(refused).remaining, '0');
      assert.equal(refused.headers.get('x-request-id'), 'rl-4');
      const again = await c.get('/custom/config', { token });
      assert.equal(again.status, 429, 'still limited on another route');

      // another token of the same bot is the same principal: still limited (the limit counts the
      // verified principal, so fresh tokens buy nothing)
      const other = await botToken(c, tenant.accountKey, tenant.botKey, tenant.botSecret);
      const same = await c.get('/custom/config', { token: other });
      assert.equal(same.status, 429);
      // another bot of the same account has its own budget
      const second = await c.post('/bots', supportBot(), { token: tenant.accountToken });
      assert.equal(second.status, 201, second.text);
      const secondToken = await botToken(c, tenant.accountKey, second.body.APIKey, second.body.APISecret);
      const fresh = await c.get('/custom/config', { token: secondToken });
      assert.equal(fresh.status, 200);
      assert.equal(limits(fresh).remaining, '2');
      // the refused turn did not run (read from the store: the API is closed to this bot for now)
      const bot = await server.running.store.bots.byApiKey(tenant.botKey);
      const conversation = await server.running.store.conversations.byUser(bot!.id, 'rl');
      assert.equal(conversation?.state.variables.last_user_text ?? null, null);
    });

    test('errors of authenticated routes carry the headers too, and the account token has its own budget', async () => {
      const c = server.client;
      const tenant = await createTenant(c); // a bot whose budget the test above did not use
      const refused = await c.get('/bots', { token: tenant.botToken });
      assert.equal(refused.status, 403);
      assert.equal(limits(refused).limit, '3');
      const bots = await c.get('/bots', { token: tenant.accountToken });
      assert.equal(bots.status, 200);
      assert.equal(limits(bots).limit, '3');
    });
  });
}
