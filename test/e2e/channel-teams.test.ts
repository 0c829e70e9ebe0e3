// Microsoft Teams through the Bot Framework (channels-more.md) end to end: the real server, its
// webhook driven with Bot Framework activities carrying JWTs signed by the double's published keys
// (or forged), and a double of the OpenID metadata, keys, token endpoint and connector that checks
// every activity the server posts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk, variablesOf } from '../support/chat-kit.js';
import { openRaw } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { stillHangingAfterAnswer } from '../support/double-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { B_CARDS, B_MEDIA, C_CAT, IMAGE, shopBot, SIZES } from '../support/messenger-kit.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { newSigningKey, TeamsDouble, type TokenOptions } from '../support/teams-double.js';

const APP_ID = '5f0c2a7e-3b1d-4c8e-9a6f-0d2e4b6c8a10';
const APP_PASSWORD = 'Qx8~teams.client.secret-for-tests_0123';
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

type Activity = Record<string, any>;

for (const kind of databaseKinds()) {
  describe(`Teams channel through the Bot Framework (${kind})`, () => {
    let teams: TeamsDouble;
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let webhookPath: string;
    let n = 0;

    before(async () => {
      teams = await TeamsDouble.start(APP_ID, APP_PASSWORD);
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, {
        COLLOQUY_BOTFRAMEWORK_OPENID_URL: teams.openIdUrl,
        COLLOQUY_BOTFRAMEWORK_TOKEN_URL: teams.tokenUrl,
        COLLOQUY_BOTFRAMEWORK_SERVICE_HOSTS: '127.0.0.1,*.botframework.com',
      });
      tenant = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/teams`, { AppId: APP_ID, AppPassword: APP_PASSWORD }, { token: tenant.accountToken });
      assert.equal(connected.status, 200, connected.text);
      assert.deepEqual(connected.body, { Channel: 'teams', Enabled: true, WebhookUrl: connected.body.WebhookUrl, Account: APP_ID });
      webhookPath = new URL(connected.body.WebhookUrl).pathname;
    });
    after(async () => {
      teams.assertNoViolations();
      await teams.close();
      await server.close();
      await database.drop();
    });

    const newConversation = () => `a:1${process.pid}x${++n}Teams-Personal_Chat`;
    const activity = (conversation: string, extra: Activity = {}): Activity => ({
      type: 'message',
      id: `${Date.now()}${++n}`,
      timestamp: new Date().toISOString(),
      serviceUrl: teams.serviceUrl,
      channelId: 'msteams',
      from: { id: `29:1user-${conversation}`, name: 'Ada Lovelace', aadObjectId: '00000000-0000-4000-8000-000000000001' },
      conversation: { conversationType: 'personal', tenantId: TENANT, id: conversation },
      recipient: { id: `28:${APP_ID}`, name: 'Shop' },
      textFormat: 'plain',
      locale: 'en-US',
      channelData: { tenant: { id: TENANT } },
      ...extra,
    });
    const deliver = async (body: Activity | string, token?: string | null, path = webhookPath) => {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      const bearer = token === undefined ? await teams.token(typeof body === 'string' ? { serviceUrl: teams.serviceUrl } : body) : token;
      return server.client.post(path, undefined, { raw, contentType: 'application/json', headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` } });
    };
    const say = (conversation: string, text: string, extra: Activity = {}) => deliver(activity(conversation, { text, ...extra }));
    const click = (conversation: string, value: string) => deliver(activity(conversation, { text: 'Catalogue', value }));
    const messages = (conversation: string) => teams.activitiesTo(conversation).filter((a) => a.type === 'message');
    const welcomed = (conversation: string) => teams.waitFor(() => messages(conversation).length >= 2, 'the welcome');
    const stateOf = (userId: string) => server.client.get(`/custom/state?userid=${encodeURIComponent(userId)}`, { token: tenant.botToken });
    const hero = (a: Activity) => a.attachments.map((x: Activity) => [x.contentType, x.content]);

    test('connect asks the token URL for a token; refused credentials are 400 CHANNEL_REJECTED; malformed fields 400', async () => {
      assert.match(webhookPath, /^\/channels\/teams\/[A-Za-z0-9_-]{22,}$/);
      assert.ok(teams.tokenRequests >= 1);
      const other = await createTenant(server.client, shopBot());
      const put = (body: unknown) => server.client.put(`/bots/${other.botKey}/channels/teams`, body, { token: other.accountToken });
      const refused = await put({ AppId: APP_ID, AppPassword: 'wrong' });
      assert.deepEqual([refused.status, refused.body.Code, refused.body.Description], [400, 'CHANNEL_REJECTED', '401 invalid_client']);
      const missing = await put({ AppId: APP_ID });
      assert.deepEqual([missing.status, missing.body.Code, missing.body.Field], [400, 'MISSING_FIELD', 'AppPassword']);
      for (const bad of [
        { AppId: 'my-bot', AppPassword: APP_PASSWORD },
        { AppId: APP_ID, AppPassword: APP_PASSWORD, TenantId: 'contoso' },
      ]) {
        const res = await put(bad);
        assert.deepEqual([res.status, res.body.Code], [400, 'INVALID_REQUEST'], JSON.stringify(bad));
      }
      const list = await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken });
      assert.deepEqual(
        list.body.Result.find((c: any) => c.Channel === 'teams'),
        { Channel: 'teams', Enabled: true, WebhookUrl: `${server.url}${webhookPath}`, Account: APP_ID, LastInboundAt: null, LastError: null },
      );
      assert.ok(!list.text.includes(APP_PASSWORD));
    });

    test('the bot added to a conversation starts it; a text is answered with a Hero card of messageBack and openUrl buttons', async () => {
      const conversation = newConversation();
      const added = await deliver(activity(conversation, { type: 'conversationUpdate', membersAdded: [{ id: `28:${APP_ID}` }, { id: '29:1someone' }] }));
      assert.deepEqual([added.status, added.body], [200, { ok: true }]);
      await welcomed(conversation);
      const [welcome, menu] = messages(conversation);
      assert.deepEqual(welcome, { type: 'message', text: 'Welcome to the shop!' });
      assert.deepEqual(hero(menu), [
        [
          'application/vnd.microsoft.card.hero',
          {
            text: 'What do you need?',
            buttons: [
              { type: 'messageBack', title: 'Catalogue', displayText: 'Catalogue', text: 'Catalogue', value: B_CARDS },
              { type: 'messageBack', title: 'Files', displayText: 'Files', text: 'Files', value: B_MEDIA },
              { type: 'openUrl', title: 'Our site', value: 'https://example.com/' },
            ],
          },
        ],
      ]);
      const raw = await openRaw(database);
      try {
        const stored = await raw.all('SELECT reply_address FROM channel_contacts JOIN conversations ON conversations.id = channel_contacts.conversation_id WHERE conversations.user_id = $1', [
          `teams:${conversation}`,
        ]);
        assert.deepEqual(stored, [{ reply_address: teams.serviceUrl }], 'the verified serviceUrl is where replies go');
      } finally {
        await raw.close();
      }
      const variables = await variablesOf(server, tenant.botToken, `teams:${conversation}`);
      assert.deepEqual([variables.channel, variables.name, variables.teams_user], ['teams', 'Ada Lovelace', `29:1user-${conversation}`]);
      const other = newConversation();
      assert.equal((await deliver(activity(other, { type: 'conversationUpdate', membersAdded: [{ id: '29:1someone' }] }))).status, 200);
      assert.equal((await stateOf(`teams:${other}`)).status, 404, 'someone else joining starts nothing');
    });

    test('a button click (its value) is the command; a carousel is Hero cards side by side', async () => {
      const conversation = newConversation();
      await say(conversation, 'hello');
      await welcomed(conversation);
      await click(conversation, B_CARDS);
      await teams.waitFor(() => messages(conversation).length >= 3, 'the carousel');
      const carousel = messages(conversation)[2];
      assert.equal(carousel.attachmentLayout, 'carousel');
      assert.deepEqual(hero(carousel), [
        [
          'application/vnd.microsoft.card.hero',
          {
            title: 'Cat',
            subtitle: 'A fine cat',
            images: [{ url: IMAGE, alt: 'Cat' }],
            buttons: [{ type: 'messageBack', title: 'Take the cat', displayText: 'Take the cat', text: 'Take the cat', value: C_CAT }],
          },
        ],
        ['application/vnd.microsoft.card.hero', { title: 'Dog', buttons: [{ type: 'openUrl', title: 'Read more', value: 'https://example.com/dog' }] }],
      ]);
      await click(conversation, C_CAT);
      await teams.waitFor(() => messages(conversation).length >= 4, 'the sizes');
      const sizes = hero(messages(conversation)[3]);
      assert.deepEqual(
        sizes.map(([, card]: any) => [card.text, card.buttons.map((b: any) => b.value)]),
        [['Which size?', [...SIZES.map((s) => s.id), 'https://example.com/sizes']]],
      );
      await click(conversation, SIZES[3].id);
      await teams.waitFor(() => messages(conversation).some((m) => m.text === 'Size XL it is.'), 'the chosen size');
    });

    test('media are attachments with a contentUrl; a delay is a typing activity; a mention of the bot is not part of the text', async () => {
      const conversation = newConversation();
      await say(conversation, 'hi');
      await welcomed(conversation);
      await click(conversation, B_MEDIA);
      await teams.waitFor(() => messages(conversation).length >= 5, 'the media');
      const [image, file, long] = messages(conversation).slice(2);
      assert.deepEqual(image, { type: 'message', text: 'A picture', attachments: [{ contentType: 'image/png', contentUrl: IMAGE, name: 'cat.png' }] });
      assert.deepEqual(file, { type: 'message', text: 'Terms', attachments: [{ contentType: 'application/pdf', contentUrl: 'https://cdn.example.com/terms.pdf', name: 'terms.pdf' }] });
      assert.deepEqual(long, { type: 'message', text: 'x'.repeat(4500) });
      const sent = teams.activitiesTo(conversation).map((a) => a.type);
      assert.deepEqual(sent.slice(-4), ['message', 'typing', 'message', 'message'], 'typing before the delayed file');
      await say(conversation, '<at>Shop</at> where is my order?', { entities: [{ type: 'mention', text: '<at>Shop</at>', mentioned: { id: `28:${APP_ID}`, name: 'Shop' } }] });
      await teams.waitFor(() => messages(conversation).some((m) => m.text === 'You said: where is my order?'), 'the fallback without the mention');
      await say(conversation, '', { attachments: [{ contentType: 'image/png', contentUrl: 'https://smba.trafficmanager.net/x.png' }] });
      await teams.waitFor(() => messages(conversation).some((m) => m.text === 'You said: [image]'), 'an image without words');
    });

    test('forged tokens (another key, another audience or issuer, expired, another serviceUrl, none) and a serviceUrl host not allowed are 401; nothing is stored', async () => {
      const conversation = newConversation();
      const body = activity(conversation, { text: 'let me in' });
      const forger = await newSigningKey();
      const forged: Array<[string, TokenOptions]> = [
        ['another key', { key: forger }],
        ['another audience', { audience: '11111111-2222-4333-8444-555555555555' }],
        ['another issuer', { issuer: 'https://sts.windows.net/evil/' }],
        ['expired', { expiresIn: -600 }],
        ['another serviceUrl', { serviceUrl: 'https://smba.trafficmanager.net/emea/' }],
      ];
      for (const [what, options] of forged) {
        const res = await deliver(body, await teams.token(body, options));
        assert.deepEqual([res.status, res.body.Code], [401, 'SIGNATURE_INVALID'], what);
      }
      for (const token of [null, 'not.a.jwt']) {
        const res = await deliver(body, token);
        assert.deepEqual([res.status, res.body.Code], [401, 'SIGNATURE_INVALID'], String(token));
      }
      // Signed for what it names, but a host the server does not answer at: the token is genuine, the address is not trusted.
      const elsewhere = { ...body, serviceUrl: teams.serviceUrl.replace('127.0.0.1', 'localhost') };
      const refused = await deliver(elsewhere);
      assert.deepEqual([refused.status, refused.body.Code], [401, 'SIGNATURE_INVALID']);
      const changed = await deliver({ ...body, serviceUrl: 'https://evil.example/' }, await teams.token(body));
      assert.equal(changed.status, 401, 'the serviceUrl changed after signing');
      assert.equal((await stateOf(`teams:${conversation}`)).status, 404, 'no conversation was made');
      const raw = await openRaw(database);
      try {
        assert.deepEqual(await raw.all('SELECT update_key FROM channel_updates WHERE update_key = $1', [`${conversation}|${body.id}`]), []);
      } finally {
        await raw.close();
      }
    });

    test("malformed and oversized bodies, unknown activity types and the bot's own messages run nothing", async () => {
      const malformed = await deliver('{"type": "message", ');
      assert.deepEqual([malformed.status, malformed.body.Code], [400, 'INVALID_JSON']);
      const conversation = newConversation();
      const big = await deliver(activity(conversation, { text: 'x'.repeat(300_000) }));
      assert.equal(big.status, 413);
      for (const type of ['messageReaction', 'invoke', 'installationUpdate', 'typing', 'endOfConversation']) {
        const res = await deliver(activity(conversation, { type }));
        assert.deepEqual([res.status, res.body], [200, { ok: true }], type);
      }
      assert.equal((await deliver(activity(conversation, { text: 'echo', from: { id: `28:${APP_ID}`, name: 'Shop' } }))).status, 200);
      assert.equal((await stateOf(`teams:${conversation}`)).status, 404);
      assert.equal((await deliver(activity(conversation, { text: 'hi' }), undefined, '/channels/teams/AAAAAAAAAAAAAAAAAAAAAAAA')).status, 404);
    });

    test('the same activity twice runs once', async () => {
      const conversation = newConversation();
      await say(conversation, 'hi');
      await welcomed(conversation);
      const again = activity(conversation, { text: 'only once' });
      const token = await teams.token(again);
      assert.deepEqual(
        (await Promise.all([deliver(again, token), deliver(again, token)])).map((r) => r.status),
        [200, 200],
      );
      await teams.waitFor(() => messages(conversation).some((m) => m.text === 'You said: only once'), 'the fallback');
      const history = await chatOk(server, tenant.botToken, { UserId: `teams:${conversation}`, Command: 'READY', Channel: 'teams' });
      assert.equal(history.Parts.filter((p: any) => p.Type === 19 && p.Text === 'only once').length, 1);
    });

    test('429 with Retry-After, then 500, then success: once and in order; LastError tells; a hang does not slow the answer', async () => {
      const conversation = newConversation();
      teams.script.push('rate-limit', 'server-error');
      const started = Date.now();
      await say(conversation, 'hi');
      await welcomed(conversation);
      assert.ok(Date.now() - started >= 1000, 'Retry-After was honoured');
      assert.deepEqual(
        teams.calls.filter((c) => c.conversationId === conversation).map((c) => [c.status, c.activity.text ?? 'card']),
        [
          [429, 'Welcome to the shop!'],
          [500, 'Welcome to the shop!'],
          [200, 'Welcome to the shop!'],
          [200, 'card'],
        ],
      );
      const listed = (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'teams');
      assert.equal(listed.LastError.replace(/^\S+ /, ''), 'Teams message: 500 ServiceError');
      teams.script.push('hang');
      assert.equal((await say(newConversation(), 'hi')).status, 200);
      await stillHangingAfterAnswer(teams.hanging);
    });

    test('a single-tenant bot ignores other tenants; disconnecting erases the credentials; the webhook answers 404', async () => {
      const other = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${other.botKey}/channels/teams`, { AppId: APP_ID, AppPassword: APP_PASSWORD, TenantId: TENANT }, { token: other.accountToken });
      assert.equal(connected.status, 200, connected.text);
      const otherPath = new URL(connected.body.WebhookUrl).pathname;
      const outsider = newConversation();
      const fromElsewhere = activity(outsider, { text: 'hi', conversation: { conversationType: 'personal', tenantId: '99999999-8888-4777-8666-555555555555', id: outsider }, channelData: {} });
      assert.equal((await deliver(fromElsewhere, undefined, otherPath)).status, 200);
      assert.equal((await server.client.get(`/custom/state?userid=${encodeURIComponent(`teams:${outsider}`)}`, { token: other.botToken })).status, 404, 'a single-tenant bot ignores other tenants');
      assert.equal((await server.client.delete(`/bots/${other.botKey}/channels/teams`, { token: other.accountToken })).status, 204);
      assert.equal((await deliver(activity(newConversation(), { text: 'hi' }), undefined, new URL(connected.body.WebhookUrl).pathname)).status, 404);
      assert.equal((await server.running.store.channels.get((await server.running.store.bots.byApiKey(other.botKey))!.id, 'teams'))!.credentials, null);
    });
  });
}
