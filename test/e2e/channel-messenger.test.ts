// Messenger (channels.md) end to end: the real server, its webhook driven with the Messenger
// Platform's own notification shapes signed with the app secret, and a Send API double that
// checks every call Colloquy makes against the documented shapes and limits.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { chatOk } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, eventually, openRaw, signIn } from '../support/console-kit.js';
import { databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import type { MessengerDouble } from '../support/messenger-double.js';
import { APP_SECRET, B_CARDS, B_MEDIA, C_CAT, IMAGE, MessengerNotifications, metaChannelWorld, PAGE_ID, PAGE_TOKEN, shopBot, SIZES } from '../support/messenger-kit.js';
import { metaBytes, metaSignature as sign } from '../support/meta-webhook.js';
import type { TestServer } from '../support/server.js';
import { stillHangingAfterAnswer } from '../support/double-kit.js';

for (const kind of databaseKinds()) {
  describe(`Messenger channel (${kind})`, () => {
    const world = metaChannelWorld(kind, 'messenger', { PageId: PAGE_ID, PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET });
    let graph: MessengerDouble;
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let webhookPath: string;
    let verifyToken: string;
    before(() => {
      ({ graph, database, server, tenant, webhookPath, verifyToken } = world);
      assert.equal(world.connected.Channel, 'messenger');
      assert.equal(world.connected.Enabled, true);
    });
    let psid = 7_000_000_000_000 + process.pid * 1000;
    const fb = new MessengerNotifications(PAGE_ID);

    const newUser = () => String(++psid);
    const post = world.post;
    const send = (...messaging: unknown[]) => post(fb.notification(...messaging));
    const stateOf = (id: string) => server.client.get(`/custom/state?userid=messenger:${id}`, { token: tenant.botToken });
    const welcomed = (id: string) => graph.waitFor(() => graph.textsTo(id).length >= 2, 'the welcome');

    test('connect: a generated VerifyToken of at least 128 bits; the listing shows the page id and never a credential; bad bodies are 400', async () => {
      assert.match(webhookPath, /^\/channels\/messenger\/[A-Za-z0-9_-]{22,}$/);
      assert.match(verifyToken, /^[A-Za-z0-9_-]{22,}$/);
      const list = await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken });
      const listed = list.body.Result.find((c: any) => c.Channel === 'messenger');
      assert.deepEqual(listed, { Channel: 'messenger', Enabled: true, WebhookUrl: `${server.url}${webhookPath}`, Account: PAGE_ID, LastInboundAt: null, LastError: null });
      for (const where of [`/bots/${tenant.botKey}/channels`, '/bots', `/bots/${tenant.botKey}`, `/bots/${tenant.botKey}/versions`]) {
        const res = await server.client.get(where, { token: tenant.accountToken });
        assert.equal(res.status, 200, where);
        for (const secret of [PAGE_TOKEN, APP_SECRET, verifyToken]) assert.ok(!res.text.includes(secret), `${where} holds no credential`);
      }
      const other = await createTenant(server.client, shopBot());
      const put = (body: unknown, token = other.accountToken) => server.client.put(`/bots/${other.botKey}/channels/messenger`, body, { token });
      const missing = await put({ PageId: PAGE_ID, AppSecret: APP_SECRET });
      assert.deepEqual([missing.status, missing.body.Code, missing.body.Field], [400, 'MISSING_FIELD', 'PageAccessToken']);
      const badPage = await put({ PageId: 'my page', PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET });
      assert.deepEqual([badPage.status, badPage.body.Code], [400, 'INVALID_REQUEST']);
      const byBot = await put({ PageId: PAGE_ID, PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET }, other.botToken);
      assert.deepEqual([byBot.status, byBot.body.Code], [403, 'TOKEN_SCOPE']);
      const chosen = await put({ PageId: PAGE_ID, PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET, VerifyToken: 'my-own-verify-token' });
      assert.equal(chosen.body.VerifyToken, 'my-own-verify-token');
      assert.equal(graph.calls.length, 0, 'connecting calls nothing at Meta');
    });

    test('the subscription handshake echoes hub.challenge as text; a wrong verify token or mode is 403', async () => {
      const q = (mode: string, token: string) => `${webhookPath}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
      const ok = await server.client.get(q('subscribe', verifyToken));
      assert.equal(ok.status, 200);
      assert.match(ok.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(ok.text, '1158201444');
      for (const [mode, token] of [
        ['subscribe', 'wrong'],
        ['unsubscribe', verifyToken],
        ['subscribe', ''],
      ]) {
        const refused = await server.client.get(q(mode, token));
        assert.equal(refused.status, 403, `${mode} ${token}`);
        assert.equal(refused.body.Code, 'VERIFY_TOKEN_MISMATCH');
      }
      assert.equal((await server.client.get(`/channels/messenger/AAAAAAAAAAAAAAAAAAAAAAAA?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1`)).status, 404);
    });

    test('a first message starts the conversation on messenger; ≤ 3 buttons (a link among them) are a button template', async () => {
      const id = newUser();
      assert.equal((await send(fb.text(id, 'hello there'))).status, 200);
      await welcomed(id);
      const [welcome, menu] = graph.messagesTo(id);
      assert.deepEqual(welcome, { text: 'Welcome to the shop!' });
      assert.deepEqual(menu, {
        attachment: {
          type: 'template',
          payload: {
            template_type: 'button',
            text: 'What do you need?',
            buttons: [
              { type: 'postback', title: 'Catalogue', payload: B_CARDS },
              { type: 'postback', title: 'Files', payload: B_MEDIA },
              { type: 'web_url', title: 'Our site', url: 'https://example.com/' },
            ],
          },
        },
      });
      const sent = graph.delivered.find((c) => c.body.recipient.id === id)!.body;
      assert.equal(sent.messaging_type, 'RESPONSE');
      const values = (await server.client.get(`/custom/values?userid=messenger:${id}`, { token: tenant.botToken })).body;
      assert.equal(values.Context.Channel, 'messenger');
      assert.equal(Object.fromEntries(values.Variables.map((v: any) => [v.Name, v.Value])).channel, 'messenger');
    });

    test('a postback opens a generic-template carousel; a card button and a quick reply (more than 3 buttons) are clicked', async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      await welcomed(id);
      await send(fb.postback(id, 'Catalogue', B_CARDS));
      await graph.waitFor(() => graph.messagesTo(id).length >= 3, 'the carousel');
      assert.deepEqual(graph.messagesTo(id)[2], {
        attachment: {
          type: 'template',
          payload: {
            template_type: 'generic',
            elements: [
              { title: 'Cat', subtitle: 'A fine cat', image_url: IMAGE, buttons: [{ type: 'postback', title: 'Take the cat', payload: C_CAT }] },
              { title: 'Dog', buttons: [{ type: 'web_url', title: 'Read more', url: 'https://example.com/dog' }] },
            ],
          },
        },
      });
      await send(fb.postback(id, 'Take the cat', C_CAT));
      await graph.waitFor(() => graph.messagesTo(id).length >= 4, 'the sizes');
      const sizes = graph.messagesTo(id)[3];
      assert.equal(sizes.text, 'Which size?\nSize guide: https://example.com/sizes', 'the link is written in the text');
      assert.deepEqual(sizes.quick_replies[0], { content_type: 'text', title: 'Size S please, than…', payload: SIZES[0].id });
      assert.deepEqual(
        sizes.quick_replies.map((r: any) => r.payload),
        SIZES.map((s) => s.id),
      );
      await send(fb.quickReply(id, 'Size XL please, than…', SIZES[3].id));
      await graph.waitFor(() => graph.textsTo(id).includes('Size XL it is.'), 'the quick reply ran its button');
      await send(fb.quickReply(id, 'Old', 'not-a-button-any-more'));
      await graph.waitFor(() => graph.textsTo(id).some((t) => t.startsWith('You said')), 'an unknown payload runs the fallback');
    });

    test('media are attachments with url; a delay is typing_on held before the next part; long texts are split', async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      await welcomed(id);
      await send(fb.postback(id, 'Files', B_MEDIA));
      await graph.waitFor(() => graph.messagesTo(id).length >= 9, 'the media');
      const calls = graph.delivered.filter((c) => c.body.recipient.id === id).slice(2);
      assert.deepEqual(
        calls.map((c) => c.body.sender_action ?? c.body.message.attachment?.type ?? 'text'),
        ['image', 'text', 'typing_on', 'file', 'text', 'text', 'text', 'text'],
      );
      assert.deepEqual(calls[0].body.message, { attachment: { type: 'image', payload: { url: IMAGE } } });
      assert.deepEqual(calls[1].body.message, { text: 'A picture' });
      assert.deepEqual(calls[3].body.message, { attachment: { type: 'file', payload: { url: 'https://cdn.example.com/terms.pdf' } } });
      assert.deepEqual(calls[4].body.message, { text: 'Terms' });
      assert.ok(calls[3].at - calls[2].at >= 380, `the file came ${calls[3].at - calls[2].at} ms after typing_on`);
      const chunks = calls.slice(5).map((c) => c.body.message.text);
      assert.ok(chunks.every((t) => t.length <= 2000));
      assert.equal(chunks.join(''), 'x'.repeat(4500));
    });

    test('attachments reach the flow as their kind; echoes and receipts run nothing; a request may batch several', async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      await welcomed(id);
      const res = await send(fb.attachment(id, 'location', { coordinates: { lat: 48.85, long: 2.35 } }), ...fb.noise(id), fb.attachment(id, 'image', { url: 'https://scontent.example/p.jpg' }));
      assert.equal(res.status, 200);
      await graph.waitFor(() => graph.textsTo(id).includes('You said: [image]'), 'both attachments');
      assert.deepEqual(graph.textsTo(id).slice(2), ['You said: [location]', 'You said: [image]']);
      assert.equal((await stateOf(PAGE_ID)).status, 404, "the page's own echo started no conversation");
      const stranger = newUser();
      assert.equal((await post(fb.forPage('999000111', fb.text(stranger, 'for another page')))).status, 200);
      assert.equal((await stateOf(stranger)).status, 404, "another Page of the same app is not this bot's");
      assert.equal(graph.messagesTo(PAGE_ID).length, 0);
    });

    test('a wrong, missing or foreign signature is 401 SIGNATURE_INVALID and stores nothing', async () => {
      const id = newUser();
      const mid = fb.nextMid();
      const body = fb.notification(fb.text(id, 'let me in, café/bar', mid));
      for (const signature of [null, `sha256=${'0'.repeat(64)}`, sign(metaBytes(body), 'another-app-secret'), sign(JSON.stringify(body), APP_SECRET), 'sha1=abc']) {
        const res = await post(body, signature);
        assert.equal(res.status, 401, String(signature));
        assert.equal(res.body.Code, 'SIGNATURE_INVALID');
      }
      assert.equal((await stateOf(id)).status, 404, 'no conversation was made');
      const raw = await openRaw(database);
      try {
        assert.deepEqual(await raw.all('SELECT update_key FROM channel_updates WHERE update_key = $1', [mid]), []);
      } finally {
        await raw.close();
      }
      assert.equal(graph.messagesTo(id).length, 0);
    });

    test('the same message delivered twice (even at once) runs once', async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      await welcomed(id);
      const again = fb.notification(fb.text(id, 'only once, café/bar ✓'));
      assert.deepEqual(
        (await Promise.all([post(again), post(again)])).map((a) => a.status),
        [200, 200],
      );
      assert.equal((await post(again)).status, 200);
      await graph.waitFor(() => graph.textsTo(id).includes('You said: only once, café/bar ✓'), 'the fallback');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(graph.textsTo(id).filter((t) => t === 'You said: only once, café/bar ✓').length, 1);
      const history = await chatOk(server, tenant.botToken, { UserId: `messenger:${id}`, Command: 'READY', Channel: 'messenger' });
      assert.equal(history.Parts.filter((p: any) => p.Type === 19 && p.Text === 'only once, café/bar ✓').length, 1);
    });

    test("an operator takes over from the console and writes; the user's words reach the console, the bot stays silent", async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      await welcomed(id);
      const email = `op${id}@example.com`;
      await addOperator(server.client, tenant.accountId, email);
      const operator = consoleClient(server.client, await signIn(server.client, email));
      const where = operator.conversationPath(await botIdOf(server, tenant.botKey), `messenger:${id}`);
      assert.equal((await operator.post(`${where}/takeover`)).status, 200);
      const wrote = await operator.post(`${where}/messages`, { Text: 'Hello, this is Ann from support.' });
      assert.equal(wrote.status, 200, wrote.text);
      await graph.waitFor(() => graph.textsTo(id).includes('Hello, this is Ann from support.'), 'the operator message');
      await send(fb.text(id, 'thanks!'));
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!graph.textsTo(id).some((t) => t.startsWith('You said')), 'the bot said nothing while taken over');
      const open = await operator.get(where);
      assert.ok(JSON.stringify(open.body).includes('thanks!'), 'the console shows what the user wrote');
      assert.equal(open.body.Conversation.Channel, 'messenger');
    });

    test('CHANNEL injections as BOT and OPERATOR are delivered; a USER injection runs the flow and its answer is delivered', async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      await welcomed(id);
      const user = `messenger:${id}`;
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'Your order shipped.', Parts: [{ Type: 3, Url: 'https://cdn.example.com/label.png' }] }, { CHANNEL: 'messenger', DIRECTION: 'BOT' });
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'Any questions?' }, { CHANNEL: 'Messenger', DIRECTION: 'OPERATOR' });
      const asUser = await chatOk(server, tenant.botToken, { UserId: user, Text: 'from the API' }, { CHANNEL: 'messenger' });
      assert.equal(asUser.Parts.at(-1).Text, 'You said: from the API');
      await graph.waitFor(() => graph.textsTo(id).length >= 6, 'the injections');
      assert.deepEqual(graph.textsTo(id).slice(2), ['Your order shipped.', '[image]', 'Any questions?', 'You said: from the API']);
      const mismatch = await server.client.post('/custom/chat', { UserId: user, Text: 'x' }, { token: tenant.botToken, headers: { CHANNEL: 'telegram' } });
      assert.deepEqual([mismatch.status, mismatch.body.Code], [409, 'CHANNEL_MISMATCH']);
    });

    test('429 (rate-limit code 613, Retry-After), then 500, then success: delivered exactly once and in order; LastError tells', async () => {
      const id = newUser();
      graph.script.push('rate-limit', 'server-error');
      const started = Date.now();
      await send(fb.text(id, 'hi'));
      await graph.waitFor(() => graph.textsTo(id).length >= 2, 'the welcome after the retries', 20_000);
      assert.ok(Date.now() - started >= 1000, 'Retry-After was honoured');
      const attempts = graph.calls.filter((c) => c.body?.recipient?.id === id).map((c) => [c.status, c.body.message.text ?? c.body.message.attachment.payload.text]);
      assert.deepEqual(attempts, [
        [429, 'Welcome to the shop!'],
        [500, 'Welcome to the shop!'],
        [200, 'Welcome to the shop!'],
        [200, 'What do you need?'],
      ]);
      const listed = (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'messenger');
      assert.match(listed.LastError, /Meta me\/messages: 500/);
      assert.ok(listed.LastInboundAt);
    });

    test('a Graph API that hangs does not slow the webhook answer', async () => {
      const id = newUser();
      graph.script.push('hang');
      assert.equal((await send(fb.text(id, 'hi'))).status, 200);
      await stillHangingAfterAnswer(graph.hanging);
    });

    test('forget removes the conversation and its updates; the next message starts a new one', async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      const mid = fb.nextMid();
      const remembered = fb.notification(fb.text(id, 'remember me', mid));
      await post(remembered);
      await graph.waitFor(() => graph.textsTo(id).includes('You said: remember me'), 'the fallback');
      const updates = async () => {
        const raw = await openRaw(database);
        try {
          return (await raw.all('SELECT update_key FROM channel_updates WHERE update_key = $1', [mid])).length;
        } finally {
          await raw.close();
        }
      };
      assert.equal(await updates(), 1, 'the update was kept to run duplicates once');
      const forgot = await server.client.post('/custom/state', { userid: `messenger:${id}`, state: 'forget' }, { token: tenant.botToken });
      assert.equal(forgot.status, 202);
      assert.ok(await eventually(async () => (await stateOf(id)).status === 404), 'forgotten');
      assert.equal(await updates(), 0, 'its updates are gone with it');
      await send(fb.text(id, 'hello again'));
      await graph.waitFor(() => graph.textsTo(id).filter((t) => t === 'Welcome to the shop!').length === 2, 'a new welcome');
      const history = await chatOk(server, tenant.botToken, { UserId: `messenger:${id}`, Command: 'READY', Channel: 'messenger' });
      assert.ok(!JSON.stringify(history.Parts).includes('remember me'), 'nothing of the old conversation');
    });

    test('a banned user: nothing runs or is stored; the ban message is sent once, not again within the hour', async () => {
      const id = newUser();
      await send(fb.text(id, 'hi'));
      await welcomed(id);
      const banned = await server.client.post('/custom/state', { userid: `messenger:${id}`, state: 'ban', days: 2, message: 'You are banned for two days.' }, { token: tenant.botToken });
      assert.equal(banned.status, 200, banned.text);
      for (const said of ['let me in', 'please', 'pretty please']) assert.equal((await send(fb.text(id, said))).status, 200);
      await graph.waitFor(() => graph.textsTo(id).includes('You are banned for two days.'), 'the ban message');
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(graph.textsTo(id).slice(2), ['You are banned for two days.']);
      const history = await server.client.get(`/custom/values?userid=messenger:${id}`, { token: tenant.botToken });
      assert.ok(!JSON.stringify(history.body).includes('let me in'));
      const conversation: any = await server.running.store.conversations.byUser((await server.running.store.bots.byApiKey(tenant.botKey))!.id, `messenger:${id}`);
      assert.ok(!JSON.stringify(await server.running.store.conversations.historyParts(conversation.id)).includes('let me in'), 'the banned words were not stored');
    });

    test('the credentials are not in the database in clear', async () => {
      if (kind === 'sqlite') {
        const files = fs.readdirSync(database.dataDir).filter((f) => f.startsWith('colloquy.sqlite'));
        assert.ok(files.length >= 1);
        for (const file of files) {
          const bytes = fs.readFileSync(path.join(database.dataDir, file));
          for (const secret of [PAGE_TOKEN, APP_SECRET, verifyToken]) assert.equal(bytes.includes(secret), false, `${file} holds a credential in clear`);
        }
      }
      const raw = await openRaw(database);
      try {
        const rows = JSON.stringify([...(await raw.all('SELECT * FROM channel_connections')), ...(await raw.all('SELECT * FROM outbox'))]);
        assert.ok(rows.includes(PAGE_ID), 'the rows were read');
        for (const secret of [PAGE_TOKEN, APP_SECRET, verifyToken]) assert.ok(!rows.includes(secret));
      } finally {
        await raw.close();
      }
    });

    test('disconnecting erases the credentials; the webhook path answers 404 and the listing shows Enabled false', async () => {
      const other = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${other.botKey}/channels/messenger`, { PageId: '999', PageAccessToken: 'EAAsecond', AppSecret: 'second-secret' }, { token: other.accountToken });
      const where = new URL(connected.body.WebhookUrl).pathname;
      assert.equal((await server.client.delete(`/bots/${other.botKey}/channels/messenger`, { token: other.accountToken })).status, 204);
      const raw = metaBytes(fb.notification(fb.text(newUser(), 'hi')));
      assert.equal((await server.client.post(where, undefined, { raw, headers: { 'x-hub-signature-256': sign(raw, 'second-secret') } })).status, 404);
      const listed = (await server.client.get(`/bots/${other.botKey}/channels`, { token: other.accountToken })).body.Result.find((c: any) => c.Channel === 'messenger');
      assert.deepEqual([listed.Enabled, listed.WebhookUrl], [false, null]);
      assert.equal((await server.running.store.channels.get((await server.running.store.bots.byApiKey(other.botKey))!.id, 'messenger'))!.credentials, null);
    });
  });
}
