// What Telegram, WhatsApp and Messenger send is bounded at the inbound edge with the API's limits
// (docs/channels.md "Bounds on what platforms send"), even from a sender holding the secret: a
// 200 KB chat id used to become the UserId, a 250 KB text was stored whole, a 250 KB update_id
// was recorded, and a NUL in a text made the update fail. Each request is still answered 200
// (platforms retry anything else).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { MessengerDouble } from '../support/messenger-double.js';
import { APP_SECRET, MessengerNotifications, PAGE_ID, PAGE_TOKEN } from '../support/messenger-kit.js';
import { metaBytes, metaSignature } from '../support/meta-webhook.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';
import { WhatsAppDouble } from '../support/whatsapp-double.js';
import { WhatsAppKit } from '../support/whatsapp-kit.js';

const TOKEN = '161803398:AAH-bounds-token-abcdefghijklmnopq';
const bot = () =>
  botFile([
    { name: 'Start', start: true, actions: [text('Hi {{first_name}}{{name}}')] },
    { name: 'Fallback', fallback: true, actions: [text('Got it')] },
  ]);
const LONG_ID = '9'.repeat(300);
const LONG_TEXT = 'x'.repeat(20_000);

/** What the server holds of a conversation: whether it exists, the user's texts, its variables. */
async function held(server: TestServer, tenant: Tenant, userId: string) {
  const store = server.running.store;
  const botId = (await store.bots.byApiKey(tenant.botKey))!.id;
  const conversation = await store.conversations.byUser(botId, userId);
  if (!conversation) return null;
  const messages = await store.conversations.storedMessages(conversation.id, 50);
  return { texts: messages.filter((m) => m.direction === 'USER').map((m) => m.parts[0].Text ?? ''), variables: conversation.state.variables };
}

const seen = (server: TestServer, path: string, key: string) => server.running.store.channels.seen(path.split('/').at(-1)!, key);

for (const kind of databaseKinds()) {
  describe(`Telegram updates within bounds (${kind})`, () => {
    let telegram: TelegramDouble;
    let server: TestServer;
    let tenant: Tenant;
    let path: string;
    let update = 0;
    let chat = 880_000;
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'bounds_bot');
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: telegram.url });
      tenant = await createTenant(server.client, bot());
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/telegram`, { Token: TOKEN }, { token: tenant.accountToken });
      path = new URL(connected.body.WebhookUrl).pathname;
    });
    after(async () => {
      assert.deepEqual(telegram.violations, []);
      await server.close();
      await telegram.close();
    });

    const post = async (body: unknown) => {
      const res = await server.client.post(path, body, { headers: { 'x-telegram-bot-api-secret-token': telegram.webhook!.secret_token } });
      assert.equal(res.status, 200, res.text);
    };
    const message = (chatId: number | string, said: string, extra: Record<string, unknown> = {}) => ({
      update_id: ++update,
      message: { message_id: update, date: 1700000000, chat: { id: chatId, type: 'private' }, from: { id: 1, is_bot: false, first_name: 'Ann' }, text: said },
      ...extra,
    });
    /** A chat whose conversation has started (the welcome came). */
    const started = async () => {
      const id = ++chat;
      await post(message(id, 'hello'));
      await telegram.waitFor(() => telegram.textsOf(id).length === 1, 'the welcome');
      return id;
    };
    const answered = (id: number, n: number) => telegram.waitFor(() => telegram.textsOf(id).length === n, `${n} replies`);

    test('a chat id over 256 characters or with a control character names nobody: the update is dropped', async () => {
      for (const chatId of [LONG_ID, '12\u00003', '12\n3']) {
        const body = message(chatId, 'hello');
        await post(body);
        // (a NUL is looked up as the store would keep it, as U+FFFD: nothing either)
        assert.equal(await held(server, tenant, `telegram:${chatId}`), null);
        assert.equal(await seen(server, path, String(body.update_id)), false);
      }
      // the update after them runs: nothing was left half-done
      await started();
    });

    test('an update_id over 256 characters is recorded by its hash: the update runs, once', async () => {
      const id = await started();
      const body = message(id, 'are you there?', { update_id: LONG_ID });
      await post(body);
      await answered(id, 2);
      await post(body);
      assert.equal(await seen(server, path, LONG_ID), false, 'the long key itself is not stored');
      assert.deepEqual((await held(server, tenant, `telegram:${id}`))!.texts, ['hello', 'are you there?']);
      assert.deepEqual(telegram.textsOf(id), ['Hi Ann', 'Got it']);
    });

    test('a text over 16,384 characters is cut; NUL in a text or a name becomes U+FFFD; both are answered', async () => {
      const id = await started();
      await post(message(id, LONG_TEXT));
      await answered(id, 2);
      await post({ ...message(id, 'a\u0000b'), message: { ...message(id, 'a\u0000b').message, from: { id: 1, is_bot: false, first_name: 'A\u0000nn' } } });
      await answered(id, 3);
      const stored = (await held(server, tenant, `telegram:${id}`))!;
      assert.deepEqual(
        stored.texts.map((t) => t.length),
        [5, 16_384, 3],
      );
      assert.equal(stored.texts[2], 'a\uFFFDb');
      assert.equal(stored.variables.first_name, 'A\uFFFDnn');
    });

    test("callback data or a callback query id over 256 characters is none of the bot's buttons: dropped", async () => {
      const id = await started();
      const click = (data: string, queryId: string) => ({
        update_id: ++update,
        callback_query: { id: queryId, from: { id: 1, is_bot: false, first_name: 'Ann' }, chat_instance: '1', data, message: { message_id: 1, date: 1700000000, chat: { id, type: 'private' } } },
      });
      for (const body of [click('d'.repeat(300), 'cq1'), click('d', 'q'.repeat(300))]) {
        await post(body);
        assert.equal(await seen(server, path, String(body.update_id)), false);
      }
      assert.equal(telegram.calls.filter((c) => c.method === 'answerCallbackQuery').length, 0);
    });
  });

  describe(`WhatsApp messages within bounds (${kind})`, () => {
    let wa: WhatsAppDouble;
    let server: TestServer;
    let tenant: Tenant;
    let kit: WhatsAppKit;
    before(async () => {
      wa = await WhatsAppDouble.start();
      server = await startTestServer(kind, { COLLOQUY_META_GRAPH_URL: wa.graphUrl });
      tenant = await createTenant(server.client, bot());
      kit = await WhatsAppKit.connect(server, tenant, wa);
    });
    after(async () => {
      const violations = [...wa.violations];
      await wa.close();
      await server.close();
      assert.deepEqual(violations, []);
    });

    const post = async (body: unknown) => assert.equal((await kit.send(body)).status, 200);
    const started = async () => {
      const user = kit.newUser();
      await post(kit.text(user, 'hello'));
      await wa.waitFor(() => wa.textsOf(user).length === 1, 'the welcome');
      return user;
    };

    test('a text over 16,384 characters is cut; NUL in a text or a profile name becomes U+FFFD; both are answered', async () => {
      const user = await started();
      await post(kit.text(user, LONG_TEXT));
      await wa.waitFor(() => wa.textsOf(user).length === 2, 'the reply');
      const withNul = kit.text(user, 'a\u0000b');
      withNul.entry[0].changes[0].value.contacts[0].profile.name = 'Z\u0000oë';
      await post(withNul);
      await wa.waitFor(() => wa.textsOf(user).length === 3, 'the reply');
      const stored = (await held(server, tenant, `whatsapp:${user}`))!;
      assert.deepEqual(
        stored.texts.map((t) => t.length),
        [5, 16_384, 3],
      );
      assert.equal(stored.texts[2], 'a\uFFFDb');
      assert.equal(stored.variables.name, 'Z\uFFFDoë');
    });

    test("a button payload over 256 characters is none of the bot's buttons: dropped", async () => {
      const user = await started();
      const template = kit.message(user, { type: 'button', button: { payload: 'p'.repeat(300), text: 'Yes' } });
      const reply = kit.buttonReply(user, 'r'.repeat(300), 'Yes');
      for (const body of [template, reply]) {
        await post(body);
        assert.equal(await seen(server, kit.webhookPath, body.entry[0].changes[0].value.messages[0].id), false);
      }
    });
  });

  describe(`Messenger messages within bounds (${kind})`, () => {
    let graph: MessengerDouble;
    let server: TestServer;
    let tenant: Tenant;
    let path: string;
    let psid = 8_100_000_000_000;
    const fb = new MessengerNotifications(PAGE_ID);
    before(async () => {
      graph = await MessengerDouble.start(PAGE_TOKEN);
      server = await startTestServer(kind, { COLLOQUY_META_GRAPH_URL: graph.url });
      tenant = await createTenant(server.client, bot());
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/messenger`, { PageId: PAGE_ID, PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET }, { token: tenant.accountToken });
      path = new URL(connected.body.WebhookUrl).pathname;
    });
    after(async () => {
      graph.assertNoViolations();
      await graph.close();
      await server.close();
    });

    const send = async (...messaging: unknown[]) => {
      const raw = metaBytes(fb.notification(...messaging));
      const res = await server.client.post(path, undefined, { raw, headers: { 'x-hub-signature-256': metaSignature(raw, APP_SECRET) } });
      assert.equal(res.status, 200, res.text);
    };
    const started = async () => {
      const user = String(++psid);
      await send(fb.text(user, 'hello'));
      await graph.waitFor(() => graph.textsTo(user).length === 1, 'the welcome');
      return user;
    };

    test('a sender id over 256 characters names nobody: dropped; a mid over 256 characters is recorded by its hash and runs', async () => {
      await send(fb.text(LONG_ID, 'hello', 'm_long_sender'));
      assert.equal(await held(server, tenant, `messenger:${LONG_ID}`), null);
      assert.equal(await seen(server, path, 'm_long_sender'), false);
      const user = await started();
      const mid = `m_${'L'.repeat(300)}`;
      await send(fb.text(user, 'are you there?', mid));
      await graph.waitFor(() => graph.textsTo(user).length === 2, 'the reply');
      await send(fb.text(user, 'are you there?', mid));
      assert.equal(await seen(server, path, mid), false, 'the long key itself is not stored');
      assert.deepEqual((await held(server, tenant, `messenger:${user}`))!.texts, ['hello', 'are you there?']);
    });

    test('a text over 16,384 characters is cut, NUL becomes U+FFFD; a postback payload over 256 characters is dropped', async () => {
      const user = await started();
      await send(fb.text(user, LONG_TEXT));
      await graph.waitFor(() => graph.textsTo(user).length === 2, 'the reply');
      await send(fb.text(user, 'a\u0000b'));
      await graph.waitFor(() => graph.textsTo(user).length === 3, 'the reply');
      assert.deepEqual(
        (await held(server, tenant, `messenger:${user}`))!.texts.map((t) => t.replace('\uFFFD', '?').slice(0, 3) + t.length),
        ['hel5', 'xxx16384', 'a?b3'],
      );
      const postback = fb.postback(user, 'Yes', 'p'.repeat(300)) as any;
      await send(postback);
      assert.equal(await seen(server, path, postback.postback.mid), false);
    });
  });
}
