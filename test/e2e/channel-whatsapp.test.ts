// WhatsApp Cloud API (channels.md) end to end: the real server, its webhook driven with Meta's own
// `messages` webhook shapes signed with the app secret, and a Cloud API double that checks every
// call Colloquy makes. Delivery, operators, forget and ban: channel-whatsapp-delivery.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { chatOk } from '../support/chat-kit.js';
import { openRaw } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { B_CARDS, B_LIST, B_MEDIA, C_CAT, IMAGE, ROWS, shopBot, whatsAppSuite } from '../support/whatsapp-kit.js';

for (const kind of databaseKinds()) {
  describe(`WhatsApp channel (${kind})`, () => {
    const s = whatsAppSuite(kind);

    test('connecting checks the body, makes a VerifyToken of 256 bits, and lists the phone number id; credentials are nowhere in clear', async () => {
      assert.match(s.kit.verifyToken, /^[A-Za-z0-9_-]{43}$/);
      assert.match(s.kit.webhookPath, /^\/channels\/whatsapp\/[A-Za-z0-9_-]{22,}$/);
      const other = await createTenant(s.server.client, shopBot());
      const put = (body: unknown, token = other.accountToken) => s.server.client.put(`/bots/${other.botKey}/channels/whatsapp`, body, { token });
      const missing = await put({ PhoneNumberId: '1000', AppSecret: 's3cret' });
      assert.deepEqual([missing.status, missing.body.Code, missing.body.Field], [400, 'MISSING_FIELD', 'AccessToken']);
      const notNumeric = await put({ PhoneNumberId: 'abc', AccessToken: 'EAAB', AppSecret: 's3cret' });
      assert.deepEqual([notNumeric.status, notNumeric.body.Code], [400, 'INVALID_REQUEST']);
      const shortToken = await put({ PhoneNumberId: '1000', AccessToken: 'EAAB', AppSecret: 's3cret', VerifyToken: 'short' });
      assert.deepEqual([shortToken.status, shortToken.body.Code], [400, 'INVALID_REQUEST']);
      assert.equal((await put({ PhoneNumberId: '1000', AccessToken: 'EAAB', AppSecret: 's3cret' }, other.botToken)).status, 403);
      const chosen = await put({ PhoneNumberId: '1000', AccessToken: 'EAAB-other', AppSecret: 's3cret', VerifyToken: 'my-own-verify-token' });
      assert.equal(chosen.status, 200, chosen.text);
      assert.deepEqual(Object.keys(chosen.body).sort(), ['Channel', 'Enabled', 'VerifyToken', 'WebhookUrl']);
      assert.equal(chosen.body.VerifyToken, 'my-own-verify-token');

      const list = await s.server.client.get(`/bots/${s.tenant.botKey}/channels`, { token: s.tenant.accountToken });
      const listed = list.body.Result.find((c: any) => c.Channel === 'whatsapp');
      assert.deepEqual(
        { ...listed, LastInboundAt: null },
        { Channel: 'whatsapp', Enabled: true, WebhookUrl: `${s.server.url}${s.kit.webhookPath}`, Account: s.kit.phoneNumberId, LastInboundAt: null, LastError: null },
      );
      await s.kit.send(s.kit.text(s.kit.newUser(), 'hi'));
      for (const p of [`/bots/${s.tenant.botKey}/channels`, '/bots', `/bots/${s.tenant.botKey}`]) {
        const res = await s.server.client.get(p, { token: s.tenant.accountToken });
        for (const secret of [s.kit.accessToken, s.kit.appSecret, s.kit.verifyToken]) assert.ok(!res.text.includes(secret), `${p} holds no credential`);
      }
      if (kind === 'sqlite') {
        const files = fs.readdirSync(s.database.dataDir).filter((f) => f.startsWith('colloquy.sqlite'));
        assert.ok(files.length > 0);
        for (const f of files) assert.ok(!fs.readFileSync(path.join(s.database.dataDir, f)).includes(s.kit.accessToken), `${f} holds the access token in clear`);
      } else {
        const raw = await openRaw(s.database);
        try {
          const rows = JSON.stringify([await raw.all('SELECT * FROM channel_connections'), await raw.all('SELECT * FROM outbox')]);
          for (const secret of [s.kit.accessToken, s.kit.appSecret, s.kit.verifyToken]) assert.ok(!rows.includes(secret), 'the database holds a credential in clear');
        } finally {
          await raw.close();
        }
      }
    });

    test('the subscription handshake echoes hub.challenge as text for the right verify token, 403 otherwise, 404 for an unknown ChannelId', async () => {
      const query = (token: string, mode = 'subscribe') => `?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
      const ok = await s.server.client.get(s.kit.webhookPath + query(s.kit.verifyToken));
      assert.equal(ok.status, 200);
      assert.equal(ok.text, '1158201444');
      assert.match(ok.headers.get('content-type') ?? '', /^text\/plain/);
      const wrong = await s.server.client.get(s.kit.webhookPath + query('x'.repeat(43)));
      assert.deepEqual([wrong.status, wrong.body.Code], [403, 'VERIFY_TOKEN_MISMATCH']);
      assert.equal((await s.server.client.get(s.kit.webhookPath + query(s.kit.verifyToken, 'unsubscribe'))).status, 403);
      assert.equal((await s.server.client.get(`/channels/whatsapp/AAAAAAAAAAAAAAAAAAAAAAAA${query(s.kit.verifyToken)}`)).status, 404);
    });

    test('a first message starts the conversation with name and phone; plain buttons are reply buttons, a link among them goes in the text', async () => {
      const user = s.kit.newUser();
      const res = await s.kit.send(s.kit.text(user, 'hello there'));
      assert.deepEqual([res.status, res.body], [200, { ok: true }]);
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 2, 'the welcome');
      const [welcome, menu] = s.wa.delivered(user);
      assert.deepEqual(welcome, { messaging_product: 'whatsapp', recipient_type: 'individual', to: user, type: 'text', text: { body: 'Welcome, Zoë!' } });
      assert.deepEqual(menu.interactive, {
        type: 'button',
        body: { text: 'What do you need?\n\nOur site: https://example.com/' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: B_CARDS, title: 'Catalogue' } },
            { type: 'reply', reply: { id: B_MEDIA, title: 'Pictures, files and…' } },
            { type: 'reply', reply: { id: B_LIST, title: 'Sizes' } },
          ],
        },
      });
      assert.equal(s.wa.calls.at(-1)!.phoneNumberId, s.kit.phoneNumberId);
      assert.equal(s.wa.calls.at(-1)!.token, s.kit.accessToken);
      const v = await s.kit.values(user);
      assert.deepEqual([v.name, v.phone, v.channel], ['Zoë', user, 'whatsapp']);
    });

    test('a reply button opens the carousel: an image then buttons per card, a lone link as cta_url; a card button runs', async () => {
      const user = s.kit.newUser();
      await s.kit.send(s.kit.text(user, 'hi'));
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 2, 'the welcome');
      await s.kit.send(s.kit.buttonReply(user, B_CARDS, 'Catalogue'));
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 5, 'the carousel');
      const [image, catButtons, dog] = s.wa.delivered(user).slice(2);
      assert.deepEqual([image.type, image.image], ['image', { link: IMAGE }]);
      assert.deepEqual(catButtons.interactive, { type: 'button', body: { text: 'Cat\nA fine cat' }, action: { buttons: [{ type: 'reply', reply: { id: C_CAT, title: 'Take the cat' } }] } });
      assert.deepEqual(dog.interactive, { type: 'cta_url', body: { text: 'Dog' }, action: { name: 'cta_url', parameters: { display_text: 'Read more about dog…', url: 'https://example.com/dog' } } });
      await s.kit.send(s.kit.buttonReply(user, C_CAT, 'Take the cat'));
      await s.wa.waitFor(() => s.wa.textsOf(user).includes('The cat is yours.'), 'the card button');
    });

    test('more than three buttons are a list (row titles cut, whole in the description); a list reply runs the row', async () => {
      const user = s.kit.newUser();
      await s.kit.send(s.kit.text(user, 'hi'));
      await s.kit.send(s.kit.buttonReply(user, B_LIST, 'x'));
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 3, 'the list');
      const list = s.wa.delivered(user)[2].interactive;
      assert.equal(list.type, 'list');
      assert.equal(list.body.text, 'Pick a size');
      assert.equal(list.action.button, 'Options');
      assert.deepEqual(list.action.sections[0].rows, [
        { id: ROWS[0], title: 'Small' },
        { id: ROWS[1], title: 'Medium' },
        { id: ROWS[2], title: 'Large' },
        { id: ROWS[3], title: 'Extra large, for the wh…', description: 'Extra large, for the whole family' },
      ]);
      await s.kit.send(s.kit.listReply(user, ROWS[3], 'Extra large, for the wh…'));
      await s.wa.waitFor(() => s.wa.textsOf(user).includes('Family size it is.'), 'the row');
    });

    test('media, delays and long texts follow the table: captions, a typing indicator on the last inbound message, splits', async () => {
      const user = s.kit.newUser();
      await s.kit.send(s.kit.text(user, 'hi'));
      const clicked = s.kit.buttonReply(user, B_MEDIA, 'Pictures');
      await s.kit.send(clicked);
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 8, 'the media');
      const got = s.wa.delivered(user).slice(2);
      assert.deepEqual(
        got.map((m) => m.type),
        ['image', 'audio', 'text', 'document', 'text', 'text'],
      );
      assert.deepEqual(got[0].image, { link: IMAGE, caption: 'A picture' });
      assert.deepEqual([got[1].audio, got[2].text.body], [{ link: 'https://cdn.example.com/song.mp3' }, 'A song'], 'audio takes no caption: it follows as a text');
      assert.deepEqual(got[3].document, { link: 'https://cdn.example.com/terms.pdf', caption: 'Terms' });
      assert.equal(got[4].text.body.length <= 4096 && got[5].text.body.length <= 4096, true);
      assert.equal(`${got[4].text.body}${got[5].text.body}`, 'x'.repeat(5000), 'a text over 4096 characters is split, nothing lost');
      const typing = s.wa.typing().filter((t) => t.message_id === clicked.entry[0].changes[0].value.messages[0].id);
      assert.deepEqual(typing, [{ messaging_product: 'whatsapp', status: 'read', typing_indicator: { type: 'text' }, message_id: clicked.entry[0].changes[0].value.messages[0].id }]);
      const order = s.wa.calls.filter((c) => c.status === 200 && (c.body.to === user || c.body.message_id === typing[0].message_id)).map((c) => c.body.type ?? 'typing');
      assert.deepEqual(order.slice(-7), ['image', 'audio', 'text', 'typing', 'document', 'text', 'text'], 'the typing indicator comes right before the delayed part');
    });

    test('media, locations and other kinds reach the flow as [kind]; statuses and other numbers of the app run nothing', async () => {
      const user = s.kit.newUser();
      await s.kit.send(s.kit.text(user, 'hi'));
      await s.kit.send(s.kit.message(user, { type: 'image', image: { id: '1479537139650973', mime_type: 'image/jpeg', sha256: 'abc' } }));
      await s.kit.send(s.kit.message(user, { type: 'location', location: { latitude: 48.85, longitude: 2.35 } }));
      await s.kit.send(s.kit.message(user, { type: 'audio', audio: { id: '99', mime_type: 'audio/ogg', voice: true } }));
      await s.wa.waitFor(() => s.wa.textsOf(user).includes('You said: [voice]'), 'the kinds');
      assert.deepEqual(s.wa.textsOf(user).slice(2), ['You said: [image]', 'You said: [location]', 'You said: [voice]']);
      const history = await chatOk(s.server, s.tenant.botToken, { UserId: `whatsapp:${user}`, Command: 'READY', Channel: 'whatsapp' });
      assert.deepEqual(
        history.Parts.filter((p: any) => p.Type === 19)
          .map((p: any) => p.Text)
          .slice(-3),
        ['[image]', '[location]', '[voice]'],
      );
      const before = s.wa.calls.length;
      assert.equal((await s.kit.send(s.kit.status(user, 'wamid.out1'))).status, 200);
      assert.equal((await s.kit.send(s.kit.text(user, 'to another number', '999999'))).status, 200);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(s.wa.calls.length, before, 'nothing was sent');
    });

    test('a wrong, missing or re-encoded signature is 401 SIGNATURE_INVALID and stores nothing', async () => {
      const user = s.kit.newUser();
      const body = s.kit.text(user, 'héllo / there');
      const wrong = await s.kit.send(body, { signature: `sha256=${'0'.repeat(64)}` });
      assert.deepEqual([wrong.status, wrong.body.Code], [401, 'SIGNATURE_INVALID']);
      assert.equal((await s.kit.send(body, { signature: '' })).status, 401);
      assert.equal((await s.kit.send(body, { secret: 'another-app-secret' })).status, 401);
      assert.equal((await s.kit.send(body, { reencoded: true })).status, 401, 'signed over other bytes than those sent');
      assert.equal((await s.server.client.get(`/custom/state?userid=whatsapp:${user}`, { token: s.tenant.botToken })).status, 404, 'no conversation was made');
      assert.equal(s.wa.delivered(user).length, 0);
      assert.equal((await s.kit.send(body)).status, 200, 'the same body correctly signed is accepted');
    });

    test('the same message delivered twice (even at once) runs once', async () => {
      const user = s.kit.newUser();
      await s.kit.send(s.kit.text(user, 'hi'));
      await s.wa.waitFor(() => s.wa.delivered(user).length >= 2, 'the welcome');
      const again = s.kit.text(user, 'only once');
      assert.deepEqual(
        (await Promise.all([s.kit.send(again), s.kit.send(again)])).map((a) => a.status),
        [200, 200],
      );
      assert.equal((await s.kit.send(again)).status, 200);
      await s.wa.waitFor(() => s.wa.textsOf(user).includes('You said: only once'), 'the fallback');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(s.wa.textsOf(user).filter((t) => t === 'You said: only once').length, 1);
      const history = await chatOk(s.server, s.tenant.botToken, { UserId: `whatsapp:${user}`, Command: 'READY', Channel: 'whatsapp' });
      assert.equal(history.Parts.filter((p: any) => p.Type === 19 && p.Text === 'only once').length, 1);
    });
  });
}
