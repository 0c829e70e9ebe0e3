// Issue 37 item 3: a hand-over tried in the designer's preview made a real visitor's queue position
// "2" while the inbox showed 1 waiting. Preview conversations wait in no queue, are not in the
// /metrics gauge of conversations, and their messages and replies are not counted in usage (their
// HTTP and AI calls are: designer.md "Apart from real conversations").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`designer preview conversations are not real ones (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    const preview = (body: unknown) => server.client.post(`/bots/${tenant.botKey}/preview/chat`, body, { token: tenant.accountToken });
    const usage = async () => (await server.client.get('/account/usage', { token: tenant.accountToken })).body;
    const requestedGauge = async () => {
      const metrics = await server.client.get('/metrics');
      assert.equal(metrics.status, 200);
      return Number(/colloquy_conversations\{state="requested"\} (\d+)/.exec(metrics.text)?.[1]);
    };

    test('a preview hand-over waits in no queue, is not in /metrics and adds no messages to usage', async () => {
      const before = await usage();
      const tried = await preview({ UserId: uid('designer'), Text: 'human' });
      assert.equal(tried.status, 200, tried.text);
      assert.equal(tried.body.ControlType, 1);
      const afterPreview = await usage();
      assert.equal(afterPreview.Messages, before.Messages, 'the preview text is not a message of the account');
      assert.equal(afterPreview.Replies, before.Replies, 'nor its reply');

      const visitor = uid('visitor');
      const real = await chatOk(server, tenant.botToken, { UserId: visitor, Text: 'human' });
      assert.equal(real.ControlType, 1);
      const bot = (await server.running.store.bots.byApiKey(tenant.botKey))!;
      const conversation = (await server.running.store.conversations.byUser(bot.id, visitor))!;
      assert.equal(await server.running.store.webVisitors.queuePosition(tenant.accountId, conversation.id), 1, 'first in the queue');
      assert.equal(await requestedGauge(), 1);
      const afterReal = await usage();
      assert.equal(afterReal.Messages - afterPreview.Messages, 1, 'the real text counts');
      assert.equal(afterReal.Replies - afterPreview.Replies, 1, 'and its reply');
    });
  });
}
