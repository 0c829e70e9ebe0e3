// Instagram (channels-more.md) end to end: connected as Messenger, its webhook driven with
// Instagram's messaging notifications (`object: "instagram"`) signed with the app secret, and the
// Send API double of the Messenger tests (Instagram speaks the same Send API) checking every call.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import type { Tenant } from '../support/fixtures.js';
import type { MessengerDouble } from '../support/messenger-double.js';
import { APP_SECRET, B_CARDS, B_MEDIA, MessengerNotifications, metaChannelWorld, PAGE_TOKEN, SIZES } from '../support/messenger-kit.js';
import { metaBytes, metaSignature as sign } from '../support/meta-webhook.js';
import type { TestServer } from '../support/server.js';

const IG_ACCOUNT = '17841400000000001';

for (const kind of databaseKinds()) {
  describe(`Instagram channel (${kind})`, () => {
    const world = metaChannelWorld(kind, 'instagram', { InstagramAccountId: IG_ACCOUNT, PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET });
    let graph: MessengerDouble;
    let server: TestServer;
    let tenant: Tenant;
    let webhookPath: string;
    let verifyToken: string;
    before(() => ({ graph, server, tenant, webhookPath, verifyToken } = world));
    let igsid = 6_000_000_000_000 + process.pid * 1000;
    const ig = new MessengerNotifications(IG_ACCOUNT);

    const newUser = () => String(++igsid);
    const notification = (...messaging: unknown[]) => ({ object: 'instagram', entry: [{ id: IG_ACCOUNT, time: Date.now(), messaging }] });
    const post = world.post;

    test('connect as Messenger; the handshake echoes the challenge; a wrong verify token is 403', async () => {
      assert.match(webhookPath, /^\/channels\/instagram\/[A-Za-z0-9_-]{22,}$/);
      const ok = await server.client.get(`${webhookPath}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=42`);
      assert.deepEqual([ok.status, ok.text], [200, '42']);
      assert.equal((await server.client.get(`${webhookPath}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=42`)).status, 403);
      const missing = await server.client.put(`/bots/${tenant.botKey}/channels/instagram`, { PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET }, { token: tenant.accountToken });
      assert.deepEqual([missing.status, missing.body.Code, missing.body.Field], [400, 'MISSING_FIELD', 'InstagramAccountId']);
    });

    test('a message starts the conversation on instagram; buttons are quick replies with the link in the text; a quick reply runs its button', async () => {
      const id = newUser();
      assert.equal((await post(notification(ig.text(id, 'hello')))).status, 200);
      await graph.waitFor(() => graph.messagesTo(id).length >= 2, 'the welcome');
      assert.deepEqual(graph.messagesTo(id), [
        { text: 'Welcome to the shop!' },
        {
          text: 'What do you need?\nOur site: https://example.com/',
          quick_replies: [
            { content_type: 'text', title: 'Catalogue', payload: B_CARDS },
            { content_type: 'text', title: 'Files', payload: B_MEDIA },
          ],
        },
      ]);
      assert.equal((await server.client.get(`/custom/values?userid=instagram:${id}`, { token: tenant.botToken })).body.Context.Channel, 'instagram');
      await post(notification(ig.quickReply(id, 'Files', B_MEDIA)));
      await graph.waitFor(() => graph.messagesTo(id).length >= 11, 'the media');
      const texts = graph
        .messagesTo(id)
        .filter((m) => typeof m.text === 'string' && m.text.startsWith('xxx'))
        .map((m) => m.text.length);
      assert.deepEqual(texts, [1000, 1000, 1000, 1000, 500], 'texts split at 1000 characters');
    });

    test("a forged signature is 401; a Messenger (object page) notification and another account's run nothing; duplicates once", async () => {
      const id = newUser();
      const body = notification(ig.text(id, 'let me in'));
      const forged = await post(body, sign(metaBytes(body), 'another-secret'));
      assert.deepEqual([forged.status, forged.body.Code], [401, 'SIGNATURE_INVALID']);
      assert.equal((await post({ object: 'page', entry: [{ id: IG_ACCOUNT, time: Date.now(), messaging: [ig.text(id, 'as a page')] }] })).status, 200);
      assert.equal((await post({ object: 'instagram', entry: [{ id: '17841499999999999', time: Date.now(), messaging: [ig.text(id, 'other account')] }] })).status, 200);
      assert.equal((await server.client.get(`/custom/state?userid=instagram:${id}`, { token: tenant.botToken })).status, 404);
      const again = notification(ig.text(id, 'once'));
      assert.deepEqual(
        (await Promise.all([post(again), post(again)])).map((r) => r.status),
        [200, 200],
      );
      await graph.waitFor(() => graph.messagesTo(id).length >= 2, 'the welcome');
      const sizes = notification(ig.quickReply(id, 'x', SIZES[0].id));
      await post(sizes);
      await graph.waitFor(() => graph.textsTo(id).includes('Size S it is.'), 'the size');
      assert.equal(graph.textsTo(id).filter((t) => t === 'Welcome to the shop!').length, 1);
    });
  });
}
