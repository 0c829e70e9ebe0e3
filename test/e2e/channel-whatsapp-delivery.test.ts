// WhatsApp Cloud API (channels.md) end to end, the outbound side and the conversation APIs:
// operators, CHANNEL injections, retries (429 with Meta's rate-limit error, 5xx, hangs),
// integrator webhooks and accounting, forget, ban and disconnect.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chatOk } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, eventually, openRaw, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { setCustomChannel, usage } from '../support/webhook-kit.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { WhatsAppKit, shopBot, whatsAppSuite } from '../support/whatsapp-kit.js';
import { stillHangingAfterAnswer } from '../support/double-kit.js';

for (const kind of databaseKinds()) {
  describe(`WhatsApp channel delivery (${kind})`, () => {
    const s = whatsAppSuite(kind);

    const welcomed = async (user: string) => {
      await s.kit.send(s.kit.text(user, 'hi'));
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 2, 'the welcome');
    };

    test("an operator takes over from the console and writes; the user's words reach the console, the bot stays silent", async () => {
      const user = s.kit.newUser();
      await welcomed(user);
      const email = `op${user}@example.com`;
      await addOperator(s.server.client, s.tenant.accountId, email);
      const operator = consoleClient(s.server.client, await signIn(s.server.client, email));
      const path = operator.conversationPath(await botIdOf(s.server, s.tenant.botKey), `whatsapp:${user}`);
      assert.equal((await operator.post(`${path}/takeover`)).status, 200);
      const wrote = await operator.post(`${path}/messages`, { Text: 'Hello, this is Ann from support.' });
      assert.equal(wrote.status, 200, wrote.text);
      await s.wa.waitFor(() => s.wa.textsOf(user).includes('Hello, this is Ann from support.'), 'the operator message');
      await s.kit.send(s.kit.text(user, 'thanks!'));
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!s.wa.textsOf(user).some((t) => t.startsWith('You said')), 'the bot said nothing while taken over');
      const open = await operator.get(path);
      assert.equal(open.status, 200);
      assert.ok(JSON.stringify(open.body).includes('thanks!'), 'the console shows what the user wrote');
      assert.equal(open.body.Conversation.Channel, 'whatsapp', 'the console shows the channel');
    });

    test('CHANNEL injections as BOT and OPERATOR are delivered; a USER injection runs the flow and its answer is delivered too', async () => {
      const user = s.kit.newUser();
      await welcomed(user);
      const userId = `whatsapp:${user}`;
      await chatOk(s.server, s.tenant.botToken, { UserId: userId, Text: 'Your order shipped.' }, { CHANNEL: 'whatsapp', DIRECTION: 'BOT' });
      await chatOk(s.server, s.tenant.botToken, { UserId: userId, Text: 'Any questions?' }, { CHANNEL: 'whatsapp', DIRECTION: 'OPERATOR' });
      const asUser = await chatOk(s.server, s.tenant.botToken, { UserId: userId, Text: 'from the API' }, { CHANNEL: 'whatsapp' });
      assert.equal(asUser.Parts.at(-1).Text, 'You said: from the API');
      await s.wa.waitFor(() => s.wa.textsOf(user).length >= 5, 'the injections');
      assert.deepEqual(s.wa.textsOf(user).slice(2), ['Your order shipped.', 'Any questions?', 'You said: from the API']);
      const mismatch = await s.server.client.post('/custom/chat', { UserId: userId, Text: 'x' }, { token: s.tenant.botToken, headers: { CHANNEL: 'telegram' } });
      assert.deepEqual([mismatch.status, mismatch.body.Code], [409, 'CHANNEL_MISMATCH']);
    });

    test("429 (Meta's rate-limit error, Retry-After), then 500, then success: delivered exactly once and in order; LastError and the metric tell", async () => {
      const user = s.kit.newUser();
      s.wa.answerNext({ status: 429, retryAfter: 1 }, { status: 500 });
      const started = Date.now();
      await s.kit.send(s.kit.text(user, 'hi'));
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 2, 'the welcome after the retries', 15_000);
      assert.ok(Date.now() - started >= 1000, 'Retry-After was honoured');
      const attempts = s.wa.calls.filter((c) => c.body.to === user).map((c) => [c.status, c.body.type]);
      assert.deepEqual(attempts, [
        [429, 'text'],
        [500, 'text'],
        [200, 'text'],
        [200, 'interactive'],
      ]);
      assert.deepEqual(s.wa.textsOf(user), ['Welcome, Zoë!', 'What do you need?\n\nOur site: https://example.com/']);
      const listed = (await s.server.client.get(`/bots/${s.tenant.botKey}/channels`, { token: s.tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'whatsapp');
      assert.match(listed.LastError, new RegExp(`Meta ${s.kit.phoneNumberId}/messages: 500`));
      assert.ok(listed.LastInboundAt, 'LastInboundAt is set');
      const metrics = await s.server.client.get('/metrics');
      assert.match(metrics.text, /colloquy_channel_deliveries_total\{channel="whatsapp",outcome="failed"\} [1-9]/);
    });

    test('a platform that hangs does not slow the webhook answer', async () => {
      const user = s.kit.newUser();
      s.wa.answerNext({ hang: true });
      const res = await s.kit.send(s.kit.text(user, 'hi'));
      assert.equal(res.status, 200);
      await stillHangingAfterAnswer(s.wa.hanging);
    });

    test('integrator webhooks with includeAllChannels see these conversations with Channel whatsapp; usage counts them', async () => {
      const receiver = await WebhookReceiver.start();
      try {
        const before = await usage(s.server, s.tenant);
        await setCustomChannel(s.server, s.tenant, { webhookUrl: receiver.url, includeAllChannels: true });
        const user = s.kit.newUser();
        await s.kit.send(s.kit.text(user, 'counted'));
        await receiver.waitForAccepted(2);
        assert.deepEqual(
          receiver.calls.map((c) => [c.body.Channel, c.body.Direction, c.body.UserId]),
          [
            ['whatsapp', 'USER', `whatsapp:${user}`],
            ['whatsapp', 'BOT', `whatsapp:${user}`],
          ],
        );
        const now = await usage(s.server, s.tenant);
        assert.deepEqual([now.Messages - before.Messages, now.Replies - before.Replies, now.Notifications - before.Notifications], [1, 1, 2]);
      } finally {
        await setCustomChannel(s.server, s.tenant, { webhookUrl: null, includeAllChannels: false });
        await receiver.close();
      }
    });

    test('forget removes the conversation and its updates; the next message starts a new one', async () => {
      const user = s.kit.newUser();
      await welcomed(user);
      const remembered = s.kit.text(user, 'remember me');
      const messageId = remembered.entry[0].changes[0].value.messages[0].id;
      await s.kit.send(remembered);
      await s.wa.waitFor(() => s.wa.textsOf(user).includes('You said: remember me'), 'the fallback');
      const forgot = await s.server.client.post('/custom/state', { userid: `whatsapp:${user}`, state: 'forget' }, { token: s.tenant.botToken });
      assert.equal(forgot.status, 202);
      const gone = async () => (await s.server.client.get(`/custom/state?userid=whatsapp:${user}`, { token: s.tenant.botToken })).status === 404;
      assert.ok(await eventually(gone), 'forgotten');
      const raw = await openRaw(s.database);
      try {
        assert.deepEqual(await raw.all('SELECT update_key FROM channel_updates WHERE update_key = $1', [messageId]), [], 'its updates are gone');
      } finally {
        await raw.close();
      }
      await s.kit.send(s.kit.text(user, 'hello again'));
      await s.wa.waitFor(() => s.wa.textsOf(user).filter((t) => t === 'Welcome, Zoë!').length === 2, 'a new welcome');
      const history = await chatOk(s.server, s.tenant.botToken, { UserId: `whatsapp:${user}`, Command: 'READY', Channel: 'whatsapp' });
      assert.ok(!JSON.stringify(history.Parts).includes('remember me'), 'nothing of the old conversation');
    });

    test('a banned user: nothing runs or is stored; the ban message is sent once, not again within the hour', async () => {
      const user = s.kit.newUser();
      await welcomed(user);
      const banned = await s.server.client.post('/custom/state', { userid: `whatsapp:${user}`, state: 'ban', days: 2, message: 'You are banned for two days.' }, { token: s.tenant.botToken });
      assert.equal(banned.status, 200, banned.text);
      for (const said of ['let me in', 'please', 'pretty please']) assert.equal((await s.kit.send(s.kit.text(user, said))).status, 200);
      await s.wa.waitFor(() => s.wa.textsOf(user).includes('You are banned for two days.'), 'the ban message');
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(s.wa.textsOf(user).slice(2), ['You are banned for two days.']);
      const botId = (await s.server.running.store.bots.byApiKey(s.tenant.botKey))!.id;
      const conversation = await s.server.running.store.conversations.byUser(botId, `whatsapp:${user}`);
      const parts = await s.server.running.store.conversations.historyParts(conversation!.id);
      assert.ok(!JSON.stringify(parts).includes('let me in'), "the banned user's words were not stored");
    });

    test('disconnecting erases the credentials; the webhook and the handshake answer 404', async () => {
      const other = await createTenant(s.server.client, shopBot());
      const second = await WhatsAppKit.connect(s.server, other, s.wa);
      const gone = await s.server.client.delete(`/bots/${other.botKey}/channels/whatsapp`, { token: other.accountToken });
      assert.equal(gone.status, 204);
      assert.equal((await second.send(second.text(second.newUser(), 'hi'))).status, 404);
      assert.equal((await s.server.client.get(`${second.webhookPath}?hub.mode=subscribe&hub.verify_token=${second.verifyToken}&hub.challenge=1`)).status, 404);
      const listed = (await s.server.client.get(`/bots/${other.botKey}/channels`, { token: other.accountToken })).body.Result.find((c: any) => c.Channel === 'whatsapp');
      assert.deepEqual([listed.Enabled, listed.WebhookUrl], [false, null]);
      const row = await s.server.running.store.channels.get((await s.server.running.store.bots.byApiKey(other.botKey))!.id, 'whatsapp');
      assert.equal(row!.credentials, null);
      assert.equal(s.wa.calls.filter((c) => c.phoneNumberId === second.phoneNumberId).length, 0);
    });
  });
}
