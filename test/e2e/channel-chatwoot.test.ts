// Chatwoot as the inbox (channels-more.md) end to end: the real server as a Chatwoot agent bot, its
// webhook driven with Chatwoot's agent-bot event shapes, and an API double that checks the
// messages and status changes Colloquy makes, including the hand-off both ways.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, text } from '../support/chat-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { stillHangingAfterAnswer } from '../support/double-kit.js';
import { ChatwootDouble } from '../support/chatwoot-double.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

const BOT_TOKEN = 'cw-agent-bot-token-0123456789abcdef';
const ACCOUNT = '3';
const INBOX = 12;
const B_HUMAN = '5b1c2a1e-0d4b-4d8e-9a57-0000000000c1';
const B_HOURS = '5b1c2a1e-0d4b-4d8e-9a57-0000000000c2';

const helpBot = () =>
  botFile(
    [
      {
        name: 'Welcome',
        actions: [
          {
            type: 'buttons',
            text: 'How can I help?',
            buttons: [
              { type: 'button', id: B_HOURS, text: 'Opening hours', onClick: [text('9 to 5.')] },
              { type: 'button', id: B_HUMAN, text: 'A person', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Human' }] },
              { type: 'link', text: 'Help centre', url: 'https://example.com/help' },
            ],
          },
        ],
      },
      { name: 'Sorry', fallback: true, actions: [text('You said: {{last_user_text}}')] },
      { name: 'Human', actions: [text('Asking a colleague.'), { type: 'operator', mode: 'request' }] },
    ],
    { name: 'Help desk' },
  );

for (const kind of databaseKinds()) {
  describe(`Chatwoot channel (${kind})`, () => {
    let chatwoot: ChatwootDouble;
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let webhookPath: string;
    let conversation = 100 + (process.pid % 1000) * 100;
    let messageId = 50_000;

    before(async () => {
      chatwoot = await ChatwootDouble.start(BOT_TOKEN);
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database);
      tenant = await createTenant(server.client, helpBot());
      const connected = await server.client.put(
        `/bots/${tenant.botKey}/channels/chatwoot`,
        { BaseUrl: `${chatwoot.url}/`, AccountId: Number(ACCOUNT), BotToken: BOT_TOKEN, InboxIds: [INBOX] },
        { token: tenant.accountToken },
      );
      assert.equal(connected.status, 200, connected.text);
      assert.deepEqual(Object.keys(connected.body).sort(), ['Account', 'Channel', 'Enabled', 'WebhookUrl']);
      assert.equal(connected.body.Account, `${new URL(chatwoot.url).host} #${ACCOUNT}`);
      webhookPath = new URL(connected.body.WebhookUrl).pathname;
    });
    after(async () => {
      chatwoot.assertNoViolations();
      await chatwoot.close();
      await server.close();
      await database.drop();
    });

    const newConversation = () => String(++conversation);
    const convo = (id: string, status = 'pending') => ({ id: Number(id) + 900_000, display_id: Number(id), inbox_id: INBOX, status, account_id: Number(ACCOUNT) });
    /** A `message_created` event of an incoming message, as Chatwoot posts it to an agent bot. */
    const incoming = (id: string, content: string, extra: Record<string, unknown> = {}) => ({
      event: 'message_created',
      id: ++messageId,
      content,
      created_at: new Date().toISOString(),
      message_type: 'incoming',
      content_type: 'text',
      content_attributes: {},
      source_id: null,
      private: false,
      sender: { id: 42, name: 'Alice Martin', email: 'alice@example.com', phone_number: '+33612345678', type: 'contact' },
      conversation: convo(id),
      account: { id: Number(ACCOUNT), name: 'Shop' },
      inbox: { id: INBOX, name: 'Website' },
      ...extra,
    });
    const statusChanged = (id: string, status: string) => ({ event: 'conversation_status_changed', ...convo(id, status), timestamp: Date.now() });
    const post = (body: unknown) => server.client.post(webhookPath, body);
    const stateOf = async (id: string) => (await server.client.get(`/custom/state?userid=chatwoot:${ACCOUNT}:${id}`, { token: tenant.botToken })).body.State;
    const greeted = (id: string) => chatwoot.waitFor(() => chatwoot.contentsIn(ACCOUNT, id).length >= 1, 'the welcome');

    test('connect reads the profile; a refused token, a private BaseUrl and malformed fields are refused', async () => {
      assert.ok(chatwoot.calls.some((c) => c.path === '/api/v1/profile' && c.status === 200));
      assert.match(webhookPath, /^\/channels\/chatwoot\/[A-Za-z0-9_-]{22,}$/);
      const other = await createTenant(server.client, helpBot());
      const put = (body: unknown) => server.client.put(`/bots/${other.botKey}/channels/chatwoot`, body, { token: other.accountToken });
      const refused = await put({ BaseUrl: chatwoot.url, AccountId: ACCOUNT, BotToken: 'wrong' });
      assert.deepEqual([refused.status, refused.body.Code, refused.body.Description], [400, 'CHANNEL_REJECTED', 'Chatwoot profile: 401 Invalid Access Token']);
      for (const bad of [
        { BaseUrl: 'ftp://chat.example.com', AccountId: ACCOUNT, BotToken: BOT_TOKEN },
        { BaseUrl: chatwoot.url, AccountId: 'three', BotToken: BOT_TOKEN },
        { BaseUrl: 'https://user:pw@chat.example.com', AccountId: ACCOUNT, BotToken: BOT_TOKEN },
      ]) {
        const res = await put(bad);
        assert.deepEqual([res.status, res.body.Code], [400, 'INVALID_REQUEST'], JSON.stringify(bad));
      }
      const missing = await put({ BaseUrl: chatwoot.url, BotToken: BOT_TOKEN });
      assert.deepEqual([missing.status, missing.body.Code, missing.body.Field], [400, 'MISSING_FIELD', 'AccountId']);
      const listed = (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'chatwoot');
      assert.deepEqual([listed.Enabled, listed.WebhookUrl], [true, `${server.url}${webhookPath}`]);
      assert.ok(!JSON.stringify(listed).includes(BOT_TOKEN));
    });

    test('an incoming message starts the conversation; buttons are an input_select, links appended; a submitted value is the click', async () => {
      const id = newConversation();
      assert.equal((await post(incoming(id, 'hello'))).status, 200);
      await greeted(id);
      const [menu] = chatwoot.messagesIn(ACCOUNT, id);
      assert.deepEqual(menu, {
        content: 'How can I help?\nHelp centre: https://example.com/help',
        message_type: 'outgoing',
        private: false,
        content_type: 'input_select',
        content_attributes: {
          items: [
            { title: 'Opening hours', value: B_HOURS },
            { title: 'A person', value: B_HUMAN },
          ],
        },
      });
      const values = (await server.client.get(`/custom/values?userid=chatwoot:${ACCOUNT}:${id}`, { token: tenant.botToken })).body;
      const variables = Object.fromEntries(values.Variables.map((v: any) => [v.Name, v.Value]));
      assert.deepEqual([variables.channel, variables.name, variables.email], ['chatwoot', 'Alice Martin', 'alice@example.com']);
      const selected = {
        ...incoming(id, 'How can I help?'),
        event: 'message_updated',
        message_type: 'outgoing',
        content_type: 'input_select',
        content_attributes: { items: menu.content_attributes.items, submitted_values: [{ title: 'Opening hours', value: B_HOURS }] },
      };
      assert.equal((await post(selected)).status, 200);
      await chatwoot.waitFor(() => chatwoot.contentsIn(ACCOUNT, id).includes('9 to 5.'), 'the button ran');
      assert.equal((await post(selected)).status, 200);
      await post(incoming(id, 'thanks'));
      await chatwoot.waitFor(() => chatwoot.contentsIn(ACCOUNT, id).includes('You said: thanks'), 'the fallback');
      assert.deepEqual(chatwoot.contentsIn(ACCOUNT, id).slice(1), ['9 to 5.', 'You said: thanks'], 'the submission ran once');
    });

    test("outgoing, private and other inboxes' or accounts' messages run nothing; unknown events are 200", async () => {
      const id = newConversation();
      for (const body of [
        incoming(id, 'an agent wrote', { message_type: 'outgoing' }),
        incoming(id, 'a private note', { private: true }),
        incoming(id, 'another inbox', { inbox: { id: 99 }, conversation: { ...convo(id), inbox_id: 99 } }),
        incoming(id, 'another account', { account: { id: 4 } }),
        { event: 'contact_created', id: 1, account: { id: Number(ACCOUNT) } },
        { event: 'webwidget_triggered', account: { id: Number(ACCOUNT) } },
      ])
        assert.equal((await post(body)).status, 200);
      assert.equal((await server.client.get(`/custom/state?userid=chatwoot:${ACCOUNT}:${id}`, { token: tenant.botToken })).status, 404);
      const malformed = await server.client.post(webhookPath, undefined, { raw: '{"event":', contentType: 'application/json' });
      assert.deepEqual([malformed.status, malformed.body.Code], [400, 'INVALID_JSON']);
      assert.equal((await post(incoming(id, 'hi'))).status, 200);
      assert.equal((await server.client.post('/channels/chatwoot/AAAAAAAAAAAAAAAAAAAAAAAA', incoming(id, 'x'))).status, 404);
    });

    test('asking for a person opens the conversation in Chatwoot; open there silences the bot (ControlType 2), pending gives it back', async () => {
      const id = newConversation();
      await post(incoming(id, 'hi'));
      await greeted(id);
      await post({
        ...incoming(id, 'How can I help?'),
        event: 'message_updated',
        message_type: 'outgoing',
        content_type: 'input_select',
        content_attributes: { submitted_values: [{ title: 'A person', value: B_HUMAN }] },
      });
      await chatwoot.waitFor(() => chatwoot.togglesOf(ACCOUNT, id).length === 1, 'toggle_status');
      assert.deepEqual(chatwoot.togglesOf(ACCOUNT, id), ['open']);
      assert.ok(chatwoot.contentsIn(ACCOUNT, id).includes('Asking a colleague.'));
      assert.equal(await stateOf(id), 1, 'Colloquy shows it as requested');
      await post(statusChanged(id, 'open'));
      assert.equal(await stateOf(id), 2, 'a person took it');
      const before = chatwoot.contentsIn(ACCOUNT, id).length;
      await post(incoming(id, 'are you there?'));
      await post(statusChanged(id, 'pending'));
      assert.equal(await stateOf(id), 0, 'the bot has it again');
      await post(incoming(id, 'back to the bot'));
      await chatwoot.waitFor(() => chatwoot.contentsIn(ACCOUNT, id).includes('You said: back to the bot'), 'the bot answers again');
      assert.equal(chatwoot.contentsIn(ACCOUNT, id).length, before + 1, 'nothing was said while a person had it');
      const other = newConversation();
      await post(incoming(other, 'hi'));
      await greeted(other);
      await post(statusChanged(other, 'open'));
      assert.equal(await stateOf(other), 2, 'an agent opening it in Chatwoot takes it too');
    });

    test('CHANNEL injections are delivered; 429 with Retry-After and 500 are retried in order; a hang does not slow the answer', async () => {
      const id = newConversation();
      chatwoot.script.push('rate-limit', 'server-error');
      const started = Date.now();
      await post(incoming(id, 'hi'));
      await greeted(id);
      assert.ok(Date.now() - started >= 1000, 'Retry-After was honoured');
      const user = `chatwoot:${ACCOUNT}:${id}`;
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'Your order shipped.' }, { CHANNEL: 'chatwoot', DIRECTION: 'BOT' });
      await chatwoot.waitFor(() => chatwoot.contentsIn(ACCOUNT, id).includes('Your order shipped.'), 'the injection');
      const path = `/api/v1/accounts/${ACCOUNT}/conversations/${id}/messages`;
      assert.deepEqual(
        chatwoot.calls.filter((c) => c.path === path).map((c) => c.status),
        [429, 500, 200, 200],
      );
      chatwoot.script.push('hang');
      assert.equal((await post(incoming(newConversation(), 'hi'))).status, 200);
      await stillHangingAfterAnswer(chatwoot.hanging);
    });

    test('disconnecting erases the token; the webhook answers 404', async () => {
      const other = await createTenant(server.client, helpBot());
      const connected = await server.client.put(`/bots/${other.botKey}/channels/chatwoot`, { BaseUrl: chatwoot.url, AccountId: ACCOUNT, BotToken: BOT_TOKEN }, { token: other.accountToken });
      assert.equal(connected.status, 200, connected.text);
      assert.equal((await server.client.delete(`/bots/${other.botKey}/channels/chatwoot`, { token: other.accountToken })).status, 204);
      assert.equal((await server.client.post(new URL(connected.body.WebhookUrl).pathname, incoming(newConversation(), 'hi'))).status, 404);
    });
  });

  describe(`Chatwoot's BaseUrl and the private-network guard (${kind})`, () => {
    test('a loopback BaseUrl is refused when the server does not allow private networks', async () => {
      const chatwoot = await ChatwootDouble.start(BOT_TOKEN);
      const database = await createTestDatabase(kind);
      const server = await startTestServerOn(database, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '0' });
      try {
        const tenant = await createTenant(server.client, helpBot());
        const res = await server.client.put(`/bots/${tenant.botKey}/channels/chatwoot`, { BaseUrl: chatwoot.url, AccountId: ACCOUNT, BotToken: BOT_TOKEN }, { token: tenant.accountToken });
        assert.deepEqual([res.status, res.body.Code], [400, 'CHANNEL_REJECTED']);
        assert.equal(chatwoot.calls.length, 0, 'nothing was called at the private address');
      } finally {
        await chatwoot.close();
        await server.close();
        await database.drop();
      }
    });
  });
}
