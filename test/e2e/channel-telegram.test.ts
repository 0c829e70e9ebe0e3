// Telegram (channels.md) end to end: the real server, its webhook driven with Telegram's own
// Update shapes, and a Bot API double that checks every call Colloquy makes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, text } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';
import { setCustomChannel, usage } from '../support/webhook-kit.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { stillHangingAfterAnswer } from '../support/double-kit.js';

const B_CARDS = '6f1c2a1e-0d4b-4d8e-9a57-0000000000a1';
const B_MEDIA = '6f1c2a1e-0d4b-4d8e-9a57-0000000000a2';
const C_CAT = '6f1c2a1e-0d4b-4d8e-9a57-0000000000a3';
const TOKEN = '123456789:AAH-test-token-abcdefghijklmnopqrstu';
const IMAGE = 'https://cdn.example.com/cat.png';

const shopBot = () =>
  botFile(
    [
      {
        name: 'Welcome',
        actions: [
          text('Welcome, {{first_name}}!'),
          {
            type: 'buttons',
            text: 'What do you need?',
            buttons: [
              { type: 'button', id: B_CARDS, text: 'Catalogue', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Cards' }] },
              { type: 'button', id: B_MEDIA, text: 'Files', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Media' }] },
              { type: 'link', text: 'Our site', url: 'https://example.com/' },
            ],
          },
        ],
      },
      { name: 'Sorry', fallback: true, actions: [text('You said: {{last_user_text}}')] },
      {
        name: 'Cards',
        actions: [
          {
            type: 'carousel',
            cards: [
              { title: 'Cat', subtitle: 'A fine cat', imageUrl: IMAGE, buttons: [{ type: 'button', id: C_CAT, text: 'Take the cat', onClick: [text('The cat is yours.')] }] },
              { title: 'Dog', buttons: [{ type: 'link', text: 'Read more', url: 'https://example.com/dog' }] },
            ],
          },
        ],
      },
      {
        name: 'Media',
        actions: [
          { type: 'image', url: IMAGE, caption: 'A picture' },
          { type: 'delay', ms: 300 },
          { type: 'file', url: 'https://cdn.example.com/terms.pdf', caption: 'Terms' },
          text('x'.repeat(5000)),
        ],
      },
    ],
    { name: 'Shop' },
  );

for (const kind of databaseKinds()) {
  describe(`Telegram channel (${kind})`, () => {
    let telegram: TelegramDouble;
    let server: TestServer;
    let tenant: Tenant;
    let webhookPath: string;
    let secret: string;
    let update = 1000;
    let chat = 5000;

    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'shop_test_bot');
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: telegram.url });
      tenant = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/telegram`, { Token: TOKEN }, { token: tenant.accountToken });
      assert.equal(connected.status, 200, connected.text);
      webhookPath = new URL(connected.body.WebhookUrl).pathname;
      secret = telegram.webhook!.secret_token;
    });
    after(async () => {
      assert.deepEqual(telegram.violations, [], 'every Bot API call had the documented shape');
      await server.close();
      await telegram.close();
    });

    const newChat = () => ++chat;
    const from = (id: number) => ({ id, is_bot: false, first_name: 'Ann', last_name: 'Lee', username: 'annlee' });
    const send = (body: unknown, token = secret) => server.client.post(webhookPath, body, { headers: token === '' ? {} : { 'x-telegram-bot-api-secret-token': token } });
    const message = (chatId: number, textOrExtra: string | Record<string, unknown>) => ({
      update_id: ++update,
      message: { message_id: update, date: 1700000000, chat: { id: chatId, type: 'private' }, from: from(chatId), ...(typeof textOrExtra === 'string' ? { text: textOrExtra } : textOrExtra) },
    });
    const click = (chatId: number, data: string) => ({
      update_id: ++update,
      callback_query: { id: `cq${update}`, from: from(chatId), chat_instance: '1', data, message: { message_id: 1, date: 1700000000, chat: { id: chatId, type: 'private' } } },
    });
    const values = async (chatId: number) => (await server.client.get(`/custom/values?userid=telegram:${chatId}`, { token: tenant.botToken })).body;

    test('connecting calls getMe and setWebhook; the listing shows the account and never a credential', async () => {
      assert.equal(telegram.webhook!.url, `${server.url}${webhookPath}`);
      assert.deepEqual(telegram.webhook!.allowed_updates, ['message', 'callback_query']);
      assert.match(webhookPath, /^\/channels\/telegram\/[A-Za-z0-9_-]{22,}$/);
      const list = await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken });
      assert.equal(list.status, 200);
      const listed = list.body.Result.find((c: any) => c.Channel === 'telegram');
      assert.deepEqual(
        { ...listed, LastInboundAt: null },
        { Channel: 'telegram', Enabled: true, WebhookUrl: `${server.url}${webhookPath}`, Account: '@shop_test_bot', LastInboundAt: null, LastError: null },
      );
      assert.deepEqual(
        list.body.Result.map((c: any) => c.Channel),
        ['custom', 'web', 'telegram', 'whatsapp', 'messenger', 'slack', 'sms', 'chatwoot', 'instagram', 'teams'].filter((c) => list.body.Result.some((r: any) => r.Channel === c)),
      );
      const clone = await server.client.post(
        '/bot/clone',
        { Source: { BotAPIKey: tenant.botKey, BotSecret: tenant.botSecret }, Destination: { BotName: 'Copy', Variables: [] } },
        { token: tenant.accountToken },
      );
      assert.equal(clone.status, 200, clone.text);
      const cloneChannels = await server.client.get(`/bots/${clone.body.APIKey}/channels`, { token: tenant.accountToken });
      assert.equal(cloneChannels.body.Result.find((c: any) => c.Channel === 'telegram').Enabled, false, 'a clone is not connected');
      const backup = await server.client.get('/bots/backup', { token: tenant.botToken });
      assert.equal(backup.status, 200);
      for (const path of [`/bots/${tenant.botKey}/channels`, '/bots', `/bots/${tenant.botKey}`, `/bots/${tenant.botKey}/versions`]) {
        const res = await server.client.get(path, { token: tenant.accountToken });
        assert.ok(!res.text.includes(TOKEN.split(':')[1]) && !res.text.includes(secret), `${path} holds no credential`);
      }
      assert.ok(!backup.text.includes(TOKEN.split(':')[1]) && !backup.text.includes(secret), 'the backup holds no credential');
      // At rest: the database holds the credentials sealed, never in clear.
      if (kind === 'sqlite') {
        const dir = server.running.services.config.dataDir;
        for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('colloquy.sqlite'))) {
          const bytes = fs.readFileSync(path.join(dir, file));
          assert.equal(bytes.includes(TOKEN.split(':')[1]), false, `${file} holds the token in clear`);
          assert.equal(bytes.includes(secret), false, `${file} holds the secret token in clear`);
        }
      } else {
        const row = await server.running.store.channels.byBot((await server.running.store.bots.byApiKey(tenant.botKey))!.id);
        assert.equal(row[0].credentials!.token, TOKEN, 'the store opens what it sealed');
      }
    });

    test("a refused token is 400 CHANNEL_REJECTED with Telegram's words; a bot token 403; an unknown channel 404", async () => {
      const other = await createTenant(server.client, shopBot());
      const refused = await server.client.put(`/bots/${other.botKey}/channels/telegram`, { Token: '999:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, { token: other.accountToken });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.Code, 'CHANNEL_REJECTED');
      assert.equal(refused.body.Description, 'Unauthorized');
      const malformed = await server.client.put(`/bots/${other.botKey}/channels/telegram`, { Token: 'not a token' }, { token: other.accountToken });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.Code, 'INVALID_REQUEST');
      const byBot = await server.client.put(`/bots/${other.botKey}/channels/telegram`, { Token: TOKEN }, { token: other.botToken });
      assert.equal(byBot.status, 403);
      assert.equal(byBot.body.Code, 'TOKEN_SCOPE');
      const unknown = await server.client.put(`/bots/${other.botKey}/channels/fax`, { Token: TOKEN }, { token: other.accountToken });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'NOT_FOUND');
      const listed = await server.client.get(`/bots/${other.botKey}/channels`, { token: other.accountToken });
      assert.equal(listed.body.Result.find((c: any) => c.Channel === 'telegram').Enabled, false);
    });

    test('a first message starts the conversation on telegram, with the profile in variables, and the replies arrive in order', async () => {
      const id = newChat();
      const res = await send(message(id, 'hello there'));
      assert.equal(res.status, 200);
      await telegram.waitFor(() => telegram.delivered(id).length >= 2, 'the welcome');
      assert.deepEqual(telegram.textsOf(id), ['Welcome, Ann!', 'What do you need?']);
      const keyboard = telegram.delivered(id)[1].params.reply_markup.inline_keyboard;
      assert.deepEqual(keyboard, [[{ text: 'Catalogue', callback_data: B_CARDS }], [{ text: 'Files', callback_data: B_MEDIA }], [{ text: 'Our site', url: 'https://example.com/' }]]);
      const v = await values(id);
      const vars = Object.fromEntries((v.Variables ?? []).map((x: any) => [x.Name, x.Value]));
      assert.equal(vars.first_name, 'Ann');
      assert.equal(vars.last_name, 'Lee');
      assert.equal(vars.username, 'annlee');
      assert.equal(vars.channel, 'telegram');
    });

    test('a click runs the button (answering the callback), a carousel is one photo per card, media and delays follow the table', async () => {
      const id = newChat();
      await send(message(id, '/start'));
      await telegram.waitFor(() => telegram.delivered(id).length >= 2, 'the welcome');
      await send(click(id, B_CARDS));
      await telegram.waitFor(() => telegram.delivered(id, ['sendPhoto', 'sendMessage']).length >= 4, 'the carousel');
      const [cat, dog] = telegram
        .delivered(id)
        .slice(2)
        .filter((c) => c.method !== 'answerCallbackQuery');
      assert.equal(cat.method, 'sendPhoto');
      assert.equal(cat.params.photo, IMAGE);
      assert.equal(cat.params.caption, 'Cat\nA fine cat');
      assert.deepEqual(cat.params.reply_markup.inline_keyboard, [[{ text: 'Take the cat', callback_data: C_CAT }]]);
      assert.equal(dog.method, 'sendMessage', 'a card without an image is a text with its buttons');
      assert.equal(dog.params.text, 'Dog');
      await telegram.waitFor(() => telegram.calls.some((c) => c.method === 'answerCallbackQuery' && c.status === 200 && c.params.callback_query_id === `cq${update}`), 'the callback query answered');
      await send(click(id, C_CAT));
      await telegram.waitFor(() => telegram.textsOf(id).includes('The cat is yours.'), 'the card button');

      const other = newChat();
      await send(message(other, '/start'));
      await send(click(other, B_MEDIA));
      await telegram.waitFor(() => telegram.delivered(other).filter((c) => c.method === 'sendMessage').length >= 4, 'the media');
      const calls = telegram
        .delivered(other)
        .filter((c) => c.method !== 'answerCallbackQuery')
        .slice(2);
      assert.deepEqual(
        calls.map((c) => c.method),
        ['sendPhoto', 'sendChatAction', 'sendDocument', 'sendMessage', 'sendMessage'],
      );
      assert.equal(calls[1].params.action, 'typing');
      assert.ok(calls[2].at - calls[1].at >= 300, `the part after a 300 ms delay came ${calls[2].at - calls[1].at} ms after the typing action`);
      assert.equal(calls[2].params.document, 'https://cdn.example.com/terms.pdf');
      assert.equal(calls[3].params.text + calls[4].params.text, 'x'.repeat(5000), 'a text over 4096 characters is split, nothing lost');
    });

    test('a wrong or missing secret token is 401 and stores nothing; an unknown ChannelId is 404', async () => {
      const id = newChat();
      const wrong = await send(message(id, 'hi'), 'x'.repeat(43));
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.Code, 'SIGNATURE_INVALID');
      assert.equal((await send(message(id, 'hi'), '')).status, 401);
      const state = await server.client.get(`/custom/state?userid=telegram:${id}`, { token: tenant.botToken });
      assert.equal(state.status, 404, 'no conversation was made');
      const unknown = await server.client.post('/channels/telegram/AAAAAAAAAAAAAAAAAAAAAAAA', message(id, 'hi'), { headers: { 'x-telegram-bot-api-secret-token': secret } });
      assert.equal(unknown.status, 404);
      assert.equal(telegram.delivered(id).length, 0);
    });

    test('the same update delivered twice (even at once) runs once', async () => {
      const id = newChat();
      await send(message(id, '/start'));
      await telegram.waitFor(() => telegram.delivered(id).length >= 2, 'the welcome');
      const again = message(id, 'only once');
      const answers = await Promise.all([send(again), send(again)]);
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200],
      );
      assert.equal((await send(again)).status, 200);
      await telegram.waitFor(() => telegram.textsOf(id).includes('You said: only once'), 'the fallback');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(telegram.textsOf(id).filter((t) => t === 'You said: only once').length, 1);
      const history = await chatOk(server, tenant.botToken, { UserId: `telegram:${id}`, Command: 'READY', Channel: 'telegram' });
      assert.equal(history.Parts.filter((p: any) => p.Type === 19 && p.Text === 'only once').length, 1);
    });

    test("an operator takes over from the console and writes; the user's words reach the console, the bot stays silent", async () => {
      const id = newChat();
      await send(message(id, '/start'));
      await telegram.waitFor(() => telegram.delivered(id).length >= 2, 'the welcome');
      const email = `op${id}@example.com`;
      await addOperator(server.client, tenant.accountId, email);
      const operator = consoleClient(server.client, await signIn(server.client, email));
      const path = operator.conversationPath(await botIdOf(server, tenant.botKey), `telegram:${id}`);
      assert.equal((await operator.post(`${path}/takeover`)).status, 200);
      const wrote = await operator.post(`${path}/messages`, { Text: 'Hello, this is Ann from support.' });
      assert.equal(wrote.status, 200, wrote.text);
      await telegram.waitFor(() => telegram.textsOf(id).includes('Hello, this is Ann from support.'), 'the operator message');
      await send(message(id, 'thanks!'));
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!telegram.textsOf(id).some((t) => t.startsWith('You said')), 'the bot said nothing while taken over');
      const open = await operator.get(path);
      assert.equal(open.status, 200);
      assert.ok(JSON.stringify(open.body).includes('thanks!'), 'the console shows what the user wrote');
      assert.equal(open.body.Conversation.Channel, 'telegram', 'the console shows the channel');
    });

    test('CHANNEL injections as BOT and OPERATOR are delivered; a USER injection runs the flow and its answer is delivered too', async () => {
      const id = newChat();
      await send(message(id, '/start'));
      await telegram.waitFor(() => telegram.delivered(id).length >= 2, 'the welcome');
      const user = `telegram:${id}`;
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'Your order shipped.' }, { CHANNEL: 'telegram', DIRECTION: 'BOT' });
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'Any questions?' }, { CHANNEL: 'telegram', DIRECTION: 'OPERATOR' });
      const asUser = await chatOk(server, tenant.botToken, { UserId: user, Text: 'from the API' }, { CHANNEL: 'telegram' });
      assert.equal(asUser.Parts.at(-1).Text, 'You said: from the API');
      await telegram.waitFor(() => telegram.textsOf(id).length >= 5, 'the injections');
      assert.deepEqual(telegram.textsOf(id).slice(2), ['Your order shipped.', 'Any questions?', 'You said: from the API']);
      const mismatch = await server.client.post('/custom/chat', { UserId: user, Text: 'x' }, { token: tenant.botToken, headers: { CHANNEL: 'web' } });
      assert.equal(mismatch.status, 409);
      assert.equal(mismatch.body.Code, 'CHANNEL_MISMATCH');
    });

    test('429 (retry_after), then 500, then success: every message delivered exactly once and in order; LastError and the metric tell', async () => {
      const id = newChat();
      telegram.answerNext({ status: 429, retryAfter: 1 }, { status: 500 });
      const started = Date.now();
      await send(message(id, '/start'));
      await telegram.waitFor(() => telegram.delivered(id).length >= 2, 'the welcome after the retries', 15_000);
      assert.ok(Date.now() - started >= 1000, 'retry_after was honoured');
      assert.deepEqual(telegram.textsOf(id), ['Welcome, Ann!', 'What do you need?']);
      const attempts = telegram.calls.filter((c) => String(c.params.chat_id) === String(id)).map((c) => [c.status, c.params.text]);
      assert.deepEqual(attempts, [
        [429, 'Welcome, Ann!'],
        [500, 'Welcome, Ann!'],
        [200, 'Welcome, Ann!'],
        [200, 'What do you need?'],
      ]);
      const listed = (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'telegram');
      assert.match(listed.LastError, /Telegram sendMessage: 500/);
      assert.ok(listed.LastInboundAt, 'LastInboundAt is set');
      const metrics = await server.client.get('/metrics');
      assert.match(metrics.text, /colloquy_channel_deliveries_total\{channel="telegram",outcome="failed"\} [1-9]/);
    });

    test('integrator webhooks with includeAllChannels see these conversations with Channel telegram; usage counts them', async () => {
      const receiver = await WebhookReceiver.start();
      try {
        const before = await usage(server, tenant);
        await setCustomChannel(server, tenant, { webhookUrl: receiver.url, includeAllChannels: true });
        const id = newChat();
        await send(message(id, 'counted'));
        await receiver.waitForAccepted(2);
        const bodies = receiver.calls.map((c) => c.body);
        assert.deepEqual(
          bodies.map((b) => [b.Channel, b.Direction, b.UserId]),
          [
            ['telegram', 'USER', `telegram:${id}`],
            ['telegram', 'BOT', `telegram:${id}`],
          ],
        );
        const now = await usage(server, tenant);
        assert.equal(now.Messages - before.Messages, 1);
        assert.equal(now.Replies - before.Replies, 1);
        assert.equal(now.Notifications - before.Notifications, 2);
      } finally {
        await setCustomChannel(server, tenant, { webhookUrl: null, includeAllChannels: false });
        await receiver.close();
      }
    });

    test('a platform that hangs does not slow the webhook answer', async () => {
      const id = newChat();
      telegram.answerNext({ hang: true });
      const res = await send(message(id, '/start'));
      assert.equal(res.status, 200);
      await stillHangingAfterAnswer(telegram.hanging);
    });

    test('forget removes the conversation; the next message starts a new one', async () => {
      const id = newChat();
      await send(message(id, '/start'));
      await send(message(id, 'remember me'));
      await telegram.waitFor(() => telegram.textsOf(id).includes('You said: remember me'), 'the fallback');
      const forgot = await server.client.post('/custom/state', { userid: `telegram:${id}`, state: 'forget' }, { token: tenant.botToken });
      assert.equal(forgot.status, 202);
      const gone = async () => (await server.client.get(`/custom/state?userid=telegram:${id}`, { token: tenant.botToken })).status === 404;
      for (let i = 0; i < 100 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(await gone(), 'forgotten');
      await send(message(id, 'hello again'));
      const history = await chatOk(server, tenant.botToken, { UserId: `telegram:${id}`, Command: 'READY', Channel: 'telegram' });
      assert.ok(!JSON.stringify(history.Parts).includes('remember me'), 'nothing of the old conversation');
    });

    test('a banned user: nothing runs or is stored; the ban message is sent once, not again within the hour', async () => {
      const id = newChat();
      await send(message(id, '/start'));
      await telegram.waitFor(() => telegram.delivered(id).length >= 2, 'the welcome');
      const banned = await server.client.post('/custom/state', { userid: `telegram:${id}`, state: 'ban', days: 2, message: 'You are banned for two days.' }, { token: tenant.botToken });
      assert.equal(banned.status, 200, banned.text);
      for (const said of ['let me in', 'please', 'pretty please']) assert.equal((await send(message(id, said))).status, 200);
      await telegram.waitFor(() => telegram.textsOf(id).includes('You are banned for two days.'), 'the ban message');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(telegram.textsOf(id).filter((t) => t === 'You are banned for two days.').length, 1);
      assert.ok(!telegram.textsOf(id).some((t) => t.startsWith('You said')));
      const raw = await server.running.store.conversations.byUser((await server.running.store.bots.byApiKey(tenant.botKey))!.id, `telegram:${id}`);
      const parts = await server.running.store.conversations.historyParts(raw!.id);
      assert.ok(!JSON.stringify(parts).includes('let me in'), "the banned user's words were not stored");
    });

    test('disconnecting deletes the webhook at Telegram, erases the credentials, and the webhook path answers 404', async () => {
      const other = await createTenant(server.client, shopBot());
      const token2 = '222222222:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
      telegram.bots.set(token2, 'second_bot');
      const connected = await server.client.put(`/bots/${other.botKey}/channels/telegram`, { Token: token2 }, { token: other.accountToken });
      const path = new URL(connected.body.WebhookUrl).pathname;
      const secret2 = telegram.webhook!.secret_token;
      const gone = await server.client.delete(`/bots/${other.botKey}/channels/telegram`, { token: other.accountToken });
      assert.equal(gone.status, 204);
      assert.equal(telegram.calls.at(-1)!.method, 'deleteWebhook');
      assert.equal(telegram.calls.at(-1)!.token, token2);
      const after = await server.client.post(path, message(newChat(), 'hi'), { headers: { 'x-telegram-bot-api-secret-token': secret2 } });
      assert.equal(after.status, 404);
      const listed = (await server.client.get(`/bots/${other.botKey}/channels`, { token: other.accountToken })).body.Result.find((c: any) => c.Channel === 'telegram');
      assert.deepEqual([listed.Enabled, listed.WebhookUrl], [false, null]);
      const row = await server.running.store.channels.get((await server.running.store.bots.byApiKey(other.botKey))!.id, 'telegram');
      assert.equal(row!.credentials, null);
    });
  });
}
