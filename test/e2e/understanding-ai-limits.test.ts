// Issue 22, findings 3 and 5, against a local OpenAI-compatible double: what an AI provider (any
// URL a tenant names) can make the server read, say and store is bounded (docs/limits.md "AI
// answers"), and a bot's stored AI key is never sent to a URL it was not given for.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { aiFallbackBot, botFile, chatOk, summary, text, uid, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { AiDouble } from '../support/ai-double.js';

const MiB = 1024 * 1024;
const ANSWER_CAP = 64 * 1024;
const onError = [text('AI said {{ai_status}}.')];
const goToReply = [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Reply' }];
/** A bot whose `Reply` step waits long enough for a whole huge answer (the old code read it all). */
const aiBot = (step: Record<string, unknown> = {}) =>
  botFile(
    [
      { name: 'Start', start: true, actions: [text('Hi')] },
      { name: 'Reply', actions: [{ type: 'ai', mode: 'reply', variable: 'answer', say: true, timeoutMs: 60_000, onError, ...step }, text('after')] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    { triggers: [{ match: 'reply', actions: goToReply }] },
  );

for (const kind of databaseKinds()) {
  describe(`AI answers are bounded; the AI key stays with its URL (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let elsewhere: AiDouble;
    let tenant: Tenant;
    before(async () => {
      ai = await AiDouble.start();
      elsewhere = await AiDouble.start();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, aiBot());
      const put = await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'm', ApiKey: 'sk-stored-secret' }, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
    });
    after(async () => {
      await server.close();
      await ai.close();
      await elsewhere.close();
    });
    beforeEach(() => {
      ai.reset();
      elsewhere.reset();
    });

    /** The stored history of a conversation, as bytes of JSON, read back from the store. */
    async function storedHistoryBytes(user: string): Promise<number> {
      const bot = await server.running.store.bots.byApiKey(tenant.botKey);
      const conversation = await server.running.store.conversations.byUser(bot!.id, user);
      return Buffer.byteLength(await server.running.store.conversations.historyJson(conversation!.id));
    }

    test('an answer far over 1 MiB (64 MiB, streamed) is ERROR: onError runs, the provider is cut off, nothing huge is said or stored', async () => {
      const user = uid('huge');
      await chatOk(server, tenant.botToken, { UserId: user });
      const bytes = 64 * MiB;
      ai.next({ contentBytes: bytes });
      const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' });
      assert.deepEqual(summary(reply.Parts), [
        [0, 'AI said ERROR.'],
        [0, 'after'],
      ]);
      const vars = await variablesOf(server, tenant.botToken, user);
      assert.equal(vars.ai_status, 'ERROR');
      assert.equal(vars.answer, undefined);
      // Reading stopped at the cap: the double could hand over little more than socket buffers hold.
      assert.ok(ai.streamed < 16 * MiB, `the provider streamed ${ai.streamed} bytes`);
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.ok(Buffer.byteLength(JSON.stringify(ready.Parts)) < 16 * 1024, 'READY holds only the short texts');
      assert.ok((await storedHistoryBytes(user)) < 16 * 1024);
    });

    test('an answer just under 1 MiB works; the text said and stored is cut to 64 KiB; the history stays under 1 MiB', async () => {
      const user = uid('under');
      await chatOk(server, tenant.botToken, { UserId: user });
      ai.next({ contentBytes: MiB - 4096, fill: 'b' });
      const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' });
      assert.deepEqual(summary(reply.Parts), [
        [0, 'b'.repeat(ANSWER_CAP)],
        [0, 'after'],
      ]);
      const vars = await variablesOf(server, tenant.botToken, user);
      assert.equal(vars.ai_status, 'OK');
      assert.equal(vars.answer, 'b'.repeat(ANSWER_CAP));
      const stored = await storedHistoryBytes(user);
      assert.ok(stored > ANSWER_CAP && stored < 2 * ANSWER_CAP, `${stored} bytes stored`);
    });

    test('maxTokens: more than 16,384 is 400 INVALID_BOT at its path and changes nothing; none set asks for 1,024', async () => {
      const draft = async () => (await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken })).body;
      const beforePut = await draft();
      const res = await server.client.put(`/bots/${tenant.botKey}`, aiBot({ maxTokens: 16_385 }), { token: tenant.accountToken });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.Code, 'INVALID_BOT');
      assert.deepEqual(
        res.body.Problems.map((p: any) => p.Path),
        ['$.behaviours[0].interactions[1].actions[0].maxTokens'],
      );
      assert.deepEqual(await draft(), beforePut);
      assert.equal((await server.client.put(`/bots/${tenant.botKey}`, aiBot({ maxTokens: 16_384 }), { token: tenant.accountToken })).status, 200);
      await server.client.put(`/bots/${tenant.botKey}`, aiBot(), { token: tenant.accountToken });

      const user = uid('tokens');
      await chatOk(server, tenant.botToken, { UserId: user });
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' });
      assert.equal(ai.requests.length, 1);
      assert.equal(ai.requests[0].body.max_tokens, 1024);
    });

    test('nlp.aiFallback reads through the same cap: a huge answer chooses no intent, the turn goes on', async () => {
      const bot = await createTenant(server.client, aiFallbackBot());
      await server.client.put(`/bots/${bot.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'm' }, { token: bot.accountToken });
      const user = uid('fb');
      await chatOk(server, bot.botToken, { UserId: user });
      ai.next({ contentBytes: 64 * MiB });
      assert.deepEqual(summary((await chatOk(server, bot.botToken, { UserId: user, Text: 'the kettle broke, I expect compensation' })).Parts), [[0, 'Sorry?']]);
      assert.equal((await variablesOf(server, bot.botToken, user)).last_intent, '');
      assert.ok(ai.streamed < 16 * MiB, `the provider streamed ${ai.streamed} bytes`);
    });

    test('PUT /ai with another BaseUrl and no ApiKey is 400 MISSING_FIELD (Field ApiKey), changes nothing, and the new URL never gets the key', async () => {
      const settings = async () => (await server.client.get(`/bots/${tenant.botKey}/ai`, { token: tenant.accountToken })).body;
      const put = (body: Record<string, unknown>) => server.client.put(`/bots/${tenant.botKey}/ai`, body, { token: tenant.accountToken });
      const user = uid('key');
      await chatOk(server, tenant.botToken, { UserId: user });

      const moved = await put({ BaseUrl: elsewhere.baseUrl, Model: 'm' });
      assert.equal(moved.status, 400, moved.text);
      assert.equal(moved.body.Code, 'MISSING_FIELD');
      assert.equal(moved.body.Field, 'ApiKey');
      assert.deepEqual(await settings(), { BaseUrl: ai.baseUrl, Model: 'm', Configured: true, Source: 'bot', EmbeddingModel: null });
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' });
      assert.equal(elsewhere.requests.length, 0);
      assert.equal(ai.requests.at(-1)!.authorization, 'Bearer sk-stored-secret');

      // The same URL (written differently) keeps the key: changing the model needs no key.
      assert.equal((await put({ BaseUrl: ai.baseUrl.replace('http://', 'HTTP://'), Model: 'm2' })).status, 200);
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' });
      assert.equal(ai.requests.at(-1)!.authorization, 'Bearer sk-stored-secret');
      assert.equal(ai.requests.at(-1)!.body.model, 'm2');

      // Moving with a key (here: none, for a local server) works, and the stored key stays behind.
      assert.equal((await put({ BaseUrl: elsewhere.baseUrl, Model: 'm', ApiKey: '' })).status, 200);
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' });
      assert.equal(elsewhere.requests.length, 1);
      assert.equal(elsewhere.requests[0].authorization, 'Bearer none');
      // Back to the first URL without a key: the old key is gone, nothing to keep.
      assert.equal((await put({ BaseUrl: ai.baseUrl, Model: 'm' })).status, 200);
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'reply' });
      assert.equal(ai.requests.at(-1)!.authorization, 'Bearer none');
      for (const request of elsewhere.requests) assert.ok(!String(request.authorization).includes('sk-stored-secret'));
    });
  });
}
