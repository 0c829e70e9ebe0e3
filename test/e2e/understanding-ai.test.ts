// understanding.md "AI steps": the `ai` action against a local OpenAI-compatible double (answers,
// timeouts, 500s, malformed JSON, wrong labels), provider settings per bot and server-wide, the
// private-network guard, the AI fallback for intents, and usage (ApiCalls + AiTokens).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { aiFallbackBot, botFile, chatOk, summary, text, uid, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { AiDouble } from '../support/ai-double.js';

const onError = [text('AI said {{ai_status}}.')];
const aiBot = () =>
  botFile(
    [
      { name: 'Start', start: true, actions: [text('Hi')] },
      {
        name: 'Reply',
        actions: [{ type: 'ai', mode: 'reply', instructions: 'You help {{company}}.', history: 2, variable: 'answer', say: true, timeoutMs: 400, onError }, text('after')],
      },
      { name: 'Classify', actions: [{ type: 'ai', mode: 'classify', labels: ['billing', 'shipping'], variable: 'topic', onError }, text('topic={{topic}}')] },
      { name: 'Extract', actions: [{ type: 'ai', mode: 'extract', fields: { email: 'the e-mail address', city: 'the city' }, onError }, text('{{email}}|{{city}}')] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    {
      variables: { company: 'ACME' },
      triggers: [
        { match: 'reply', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Reply' }] },
        { match: { regex: '^classify' }, actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Classify' }] },
        { match: { regex: '^extract' }, actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Extract' }] },
      ],
    },
  );

for (const kind of databaseKinds()) {
  describe(`understanding: AI steps (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let tenant: Tenant;
    before(async () => {
      ai = await AiDouble.start();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, aiBot());
      const put = await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-secret-123' }, { token: tenant.accountToken });
      assert.equal(put.status, 200);
    });
    after(async () => {
      await server.close();
      await ai.close();
    });
    beforeEach(() => ai.reset());

    const say = (user: string, t: string) => chatOk(server, tenant.botToken, { UserId: user, Text: t });
    const usage = async (t: Tenant) => (await server.client.get('/account/usage', { token: t.accountToken })).body;

    test('reply: the answer is said and stored; the instructions, the last `history` messages and the text go to the provider', async () => {
      const user = uid('reply');
      await chatOk(server, tenant.botToken, { UserId: user });
      await say(user, 'hello there');
      ai.next({ content: 'We ship worldwide.', tokens: 40 });
      const before = await usage(tenant);
      const reply = await say(user, 'reply');
      assert.deepEqual(summary(reply.Parts), [
        [0, 'We ship worldwide.'],
        [0, 'after'],
      ]);
      const vars = await variablesOf(server, tenant.botToken, user);
      assert.equal(vars.answer, 'We ship worldwide.');
      assert.equal(vars.ai_status, 'OK');
      assert.equal(ai.requests.length, 1);
      const sent = ai.requests[0];
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.authorization, 'Bearer sk-secret-123');
      assert.equal(sent.body.model, 'test-model');
      assert.deepEqual(sent.body.messages, [
        { role: 'system', content: 'You help ACME.' },
        { role: 'user', content: 'hello there' },
        { role: 'assistant', content: 'Sorry?' },
        { role: 'user', content: 'reply' },
      ]);
      const afterwards = await usage(tenant);
      assert.equal(afterwards.ApiCalls - before.ApiCalls, 1);
      assert.equal(afterwards.AiTokens - before.AiTokens, 40);
    });

    test('a hang past timeoutMs is TIMEOUT, a 500 and a malformed body are ERROR: onError runs, the list goes on, nothing is retried', async () => {
      const user = uid('fail');
      await chatOk(server, tenant.botToken, { UserId: user });
      ai.next({ delayMs: 3000, content: 'late' });
      const started = Date.now();
      assert.deepEqual(summary((await say(user, 'reply')).Parts), [
        [0, 'AI said TIMEOUT.'],
        [0, 'after'],
      ]);
      assert.ok(Date.now() - started < 2500, 'timeoutMs bounds the step');
      ai.next({ status: 500 });
      assert.deepEqual(summary((await say(user, 'reply')).Parts), [
        [0, 'AI said ERROR.'],
        [0, 'after'],
      ]);
      ai.next({ body: '{"choices": [ not json' });
      assert.deepEqual(summary((await say(user, 'reply')).Parts), [
        [0, 'AI said ERROR.'],
        [0, 'after'],
      ]);
      assert.equal(ai.requests.length, 3, 'one call per step, no retries');
    });

    test('classify accepts exactly one of the labels (or other); a wrong label or non-JSON is ERROR, never made up', async () => {
      const user = uid('classify');
      await chatOk(server, tenant.botToken, { UserId: user });
      ai.next({ content: '{"label": "Shipping"}' });
      assert.deepEqual(summary((await say(user, 'classify where is it')).Parts), [[0, 'topic=shipping']]);
      ai.next({ content: '```json\n{"label": "other"}\n```' });
      assert.deepEqual(summary((await say(user, 'classify hm')).Parts), [[0, 'topic=other']]);
      ai.next({ content: '{"label": "refunds"}' });
      assert.deepEqual(summary((await say(user, 'classify money')).Parts), [
        [0, 'AI said ERROR.'],
        [0, 'topic=other'],
      ]);
      ai.next({ content: 'billing' });
      assert.deepEqual(summary((await say(user, 'classify bill')).Parts), [
        [0, 'AI said ERROR.'],
        [0, 'topic=other'],
      ]);
      assert.match(ai.requests[0].body.messages[0].content, /"billing", "shipping", "other"/);
    });

    test('extract sets one variable per field found; an answer of another shape is ERROR', async () => {
      const user = uid('extract');
      await chatOk(server, tenant.botToken, { UserId: user });
      ai.next({ content: '{"email": "ann@example.org", "city": null}' });
      assert.deepEqual(summary((await say(user, 'extract ann@example.org')).Parts), [[0, 'ann@example.org|']]);
      ai.next({ content: '["ann@example.org"]' });
      assert.deepEqual(summary((await say(user, 'extract again')).Parts), [
        [0, 'AI said ERROR.'],
        [0, 'ann@example.org|'],
      ]);
      ai.next({ content: '{"email": {"nested": true}}' });
      assert.equal((await say(user, 'extract third')).Parts[0].Text, 'AI said ERROR.');
    });

    test('GET/PUT/DELETE /bots/{APIKey}/ai: the key is never returned, nor in the bot file, the bot list or the backup; no provider is NOT_CONFIGURED', async () => {
      const view = await server.client.get(`/bots/${tenant.botKey}/ai`, { token: tenant.accountToken });
      assert.deepEqual(view.body, { BaseUrl: ai.baseUrl, Model: 'test-model', Configured: true, Source: 'bot', EmbeddingModel: null });
      for (const path of [`/bots/${tenant.botKey}`, '/bots']) {
        const res = await server.client.get(path, { token: tenant.accountToken });
        assert.equal(res.status, 200);
        assert.ok(!res.text.includes('sk-secret-123') && !res.text.includes(ai.baseUrl), path);
      }
      const backup = await server.client.get('/bots/backup', { token: tenant.botToken });
      assert.ok(!backup.text.includes('sk-secret-123'));
      // a full clone is not given the provider; the key is sealed at rest
      const clone = await server.client.post(
        '/bot/clone',
        { Source: { BotAPIKey: tenant.botKey, BotSecret: tenant.botSecret }, Destination: { BotName: 'Copy', Variables: [] } },
        { token: tenant.accountToken },
      );
      assert.equal(clone.status, 200, clone.text);
      assert.equal((await server.client.get(`/bots/${clone.body.APIKey}/ai`, { token: tenant.accountToken })).body.Source, null);
      if (kind === 'sqlite') {
        const dir = server.running.services.config.dataDir;
        for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('colloquy.sqlite'))) {
          assert.equal(fs.readFileSync(path.join(dir, file)).includes('sk-secret-123'), false, `${file} holds the AI key in clear`);
        }
      }
      assert.equal((await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: 'ftp://x', Model: 'm' }, { token: tenant.accountToken })).status, 400);
      assert.equal((await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl }, { token: tenant.accountToken })).status, 400);
      assert.equal((await server.client.get(`/bots/${tenant.botKey}/ai`, { token: tenant.botToken })).status, 403);

      const other = await createTenant(server.client, aiBot());
      const user = uid('none');
      await chatOk(server, other.botToken, { UserId: user });
      assert.deepEqual(summary((await chatOk(server, other.botToken, { UserId: user, Text: 'reply' })).Parts), [
        [0, 'AI said NOT_CONFIGURED.'],
        [0, 'after'],
      ]);
      // takes effect at once, without a publish; DELETE removes it
      assert.equal((await server.client.put(`/bots/${other.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'm2' }, { token: other.accountToken })).status, 200);
      assert.equal((await chatOk(server, other.botToken, { UserId: user, Text: 'reply' })).Parts[0].Text, 'ok');
      assert.equal(ai.requests.at(-1)!.body.model, 'm2');
      const deleted = await server.client.delete(`/bots/${other.botKey}/ai`, { token: other.accountToken });
      assert.deepEqual(deleted.body, { BaseUrl: null, Model: null, Configured: false, Source: null, EmbeddingModel: null, Deleted: true });
      assert.equal((await chatOk(server, other.botToken, { UserId: user, Text: 'reply' })).Parts[0].Text, 'AI said NOT_CONFIGURED.');
    });

    test('nlp.aiFallback: below the threshold the provider picks an intent (score "ai"), counted as an AI call; ai_status untouched', async () => {
      const bot = await createTenant(server.client, aiFallbackBot());
      await server.client.put(`/bots/${bot.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'm' }, { token: bot.accountToken });
      const user = uid('fb');
      await chatOk(server, bot.botToken, { UserId: user });
      const before = await usage(bot);
      ai.next({ content: '{"intent": "refund"}', tokens: 9 });
      assert.deepEqual(summary((await chatOk(server, bot.botToken, { UserId: user, Text: 'the kettle broke, I expect compensation' })).Parts), [[0, 'Refunds take 5 days.']]);
      let vars = await variablesOf(server, bot.botToken, user);
      assert.equal(vars.last_intent, 'refund');
      assert.equal(vars.last_intent_score, 'ai');
      assert.equal(vars.ai_status, undefined);
      assert.match(ai.requests[0].body.messages[0].content, /"refund", e\.g\. "I want my money back"/);
      const afterwards = await usage(bot);
      assert.equal(afterwards.ApiCalls - before.ApiCalls, 1);
      assert.equal(afterwards.AiTokens - before.AiTokens, 9);
      ai.next({ content: '{"intent": "weather"}' });
      assert.deepEqual(summary((await chatOk(server, bot.botToken, { UserId: user, Text: 'is it sunny in rome' })).Parts), [[0, 'Sorry?']]);
      vars = await variablesOf(server, bot.botToken, user);
      assert.equal(vars.last_intent, '');
    });
  });

  describe(`understanding: AI provider guard and server-wide default (${kind})`, () => {
    let ai: AiDouble;
    let server: TestServer;
    before(async () => {
      ai = await AiDouble.start();
      // No private networks for bots; the server-wide provider is the operator's and trusted.
      server = await startTestServer(kind, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '0', COLLOQUY_AI_BASE_URL: ai.baseUrl, COLLOQUY_AI_MODEL: 'server-model', COLLOQUY_AI_API_KEY: 'sk-server' });
    });
    after(async () => {
      await server.close();
      await ai.close();
    });

    test("the server's provider serves bots without their own; a bot's loopback URL is refused by the guard", async () => {
      const tenant = await createTenant(server.client, aiBot());
      const view = await server.client.get(`/bots/${tenant.botKey}/ai`, { token: tenant.accountToken });
      assert.deepEqual(view.body, { BaseUrl: null, Model: null, Configured: true, Source: 'server', EmbeddingModel: null });
      const user = uid('srv');
      await chatOk(server, tenant.botToken, { UserId: user });
      ai.next({ content: 'from the server provider' });
      assert.equal((await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' })).Parts[0].Text, 'from the server provider');
      assert.equal(ai.requests[0].body.model, 'server-model');
      assert.equal(ai.requests[0].authorization, 'Bearer sk-server');
      await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'own' }, { token: tenant.accountToken });
      assert.deepEqual(summary((await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' })).Parts), [
        [0, 'AI said ERROR.'],
        [0, 'after'],
      ]);
      assert.equal(ai.requests.length, 1, 'the private address was never dialled');
    });
  });
}
