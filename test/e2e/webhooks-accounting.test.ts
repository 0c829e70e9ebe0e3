// api.md section 12 (`includeAllChannels`, `state` events) and section 13 (accounting): exact
// deliveries and exact usage figures after scripted conversations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, text, uid, userPart } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { hookBot, inject, setCustomChannel, usage, waitForDeliveries } from '../support/webhook-kit.js';
import { sleep, WebhookReceiver } from '../support/webhook-receiver.js';

const month = () => new Date().toISOString().slice(0, 7);
const texts = (reply: any) => reply.Parts.map((p: any) => p.Text);

for (const kind of databaseKinds()) {
  describe(`webhooks: includeAllChannels, state events and accounting (${kind})`, () => {
    let server: TestServer;
    let receiver: WebhookReceiver;
    before(async () => {
      server = await startTestServer(kind);
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    async function adminUsage(tenant: Tenant): Promise<any> {
      const res = await server.client.get(`/admin/accounts/${tenant.accountId}`, { token: ADMIN_TOKEN });
      assert.equal(res.status, 200, res.text);
      return res.body.Usage;
    }
    async function setState(tenant: Tenant, body: Record<string, unknown>): Promise<any> {
      const res = await server.client.post('/custom/state', body, { token: tenant.botToken });
      assert.equal(res.status, 200, `POST /custom/state ${JSON.stringify(body)} → ${res.status} ${res.text}`);
      return res.body;
    }
    const callsOf = (user: string) => receiver.calls.filter((c) => c.body?.UserId === user);

    test('includeAllChannels: every user and bot message of a turn is sent and counted as a Notification; state events on takeover, handover, ban, unban', async () => {
      const tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url, includeAllChannels: true });
      const user = uid('all');
      const start = await chatOk(server, tenant.botToken, { UserId: user });
      const hello = await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello' });
      const what = await chatOk(server, tenant.botToken, { UserId: user, Text: 'what?' });
      await setState(tenant, { userid: user, state: 'takeover', operator: 'ann@example.org' });
      const silent = await chatOk(server, tenant.botToken, { UserId: user, Text: 'anyone there?' });
      assert.deepEqual(silent.Parts, []);
      const ann = await inject(server, tenant, user, 'Ann here', 'OPERATOR');
      await setState(tenant, { userid: user, state: 'handover', mode: '*' });
      const banned = await setState(tenant, { userid: user, state: 'ban', days: 2, message: 'Bye' });
      await setState(tenant, { userid: user, state: 'unban' });
      await receiver.waitFor(() => callsOf(user).length >= 11, '11 calls');
      await sleep(600);
      const calls = callsOf(user);
      assert.equal(calls.length, 11);
      const state = (State: number, Operator: string | null, BanExpiration: string | null = null, BanMessage: string | null = null) => ({
        Event: 'state',
        Direction: 'BOT',
        Reply: { UserId: user, State, Operator, BanExpiration, BanMessage },
      });
      const message = (Direction: string, Reply: any) => ({ Event: 'message', Direction, Reply });
      // a user's message goes out with the Creation of the reply its turn made
      const userReply = (said: string, interaction: string, answered: { Creation: string }, ControlType = 0) => ({
        Parts: [userPart(said, 'Main', interaction)],
        UserId: user,
        Creation: answered.Creation,
        EnableUserChat: true,
        ControlType,
      });
      assert.deepEqual(
        calls.map((c) => ({ Event: c.body.Event, Direction: c.body.Direction, Reply: c.body.Reply })),
        [
          message('BOT', start),
          message('USER', userReply('hello', 'Start', hello)),
          message('BOT', hello),
          message('USER', userReply('what?', 'Start', what)),
          message('BOT', what),
          state(2, 'ann@example.org'),
          message('USER', userReply('anyone there?', 'Fallback', silent, 2)),
          message('OPERATOR', ann),
          state(0, null),
          state(3, null, banned.BanExpiration, 'Bye'),
          state(0, null),
        ],
      );
      assert.deepEqual([texts(start), texts(hello), texts(what)], [['Hi there'], ['Hello!', 'How are you?'], ['Sorry?']]);
      assert.match(banned.BanExpiration, /^\d{4}-\d{2}-\d{2}$/);
      for (const c of calls) {
        assert.equal(c.body.BotAPIKey, tenant.botKey);
        assert.equal(c.body.Channel, 'custom');
        assert.equal(c.headers['x-colloquy-delivery'], c.body.DeliveryId);
      }
      const list = await waitForDeliveries(server, tenant, (l) => l.length === 11 && l.every((d) => d.Status === 'delivered'), '11 delivered');
      assert.deepEqual(
        list.map((d) => d.Event).reverse(),
        calls.map((c) => c.body.Event),
      );

      // 2 user messages and 3 bot messages (RESET, hello, what?) were notifications; the operator's
      // message and the user's text while taken over (forwarded to operators, rule 7) are the
      // webhook's own job on the custom channel, and state events are not counted.
      const expected = { Month: month(), Messages: 3, Replies: 3, Notifications: 5, ApiCalls: 0, AiTokens: 0 };
      assert.deepEqual(await usage(server, tenant), expected);
      assert.deepEqual(await adminUsage(tenant), expected);
    });

    test('without includeAllChannels a webhook gets the pushed messages and the state events of a custom conversation, not the turns', async () => {
      const tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
      const user = uid('some');
      await chatOk(server, tenant.botToken, { UserId: user });
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello' });
      await setState(tenant, { userid: user, state: 'takeover', operator: '*' });
      await inject(server, tenant, user, 'Operator here', 'OPERATOR');
      await inject(server, tenant, user, 'Bot pushed', 'BOT');
      await setState(tenant, { userid: user, state: 'handover', mode: 'dropshares' });
      await receiver.waitFor(() => callsOf(user).length >= 4, '4 calls');
      await sleep(600);
      assert.deepEqual(
        callsOf(user).map((c) => [c.body.Event, c.body.Direction, c.body.Event === 'state' ? c.body.Reply.State : c.body.Reply.Parts[0].Text]),
        [
          ['state', 'BOT', 2],
          ['message', 'OPERATOR', 'Operator here'],
          ['message', 'BOT', 'Bot pushed'],
          ['state', 'BOT', 0],
        ],
      );
      assert.equal(callsOf(user)[0].body.Reply.Operator, '*');
      const expected = { Month: month(), Messages: 1, Replies: 2, Notifications: 0, ApiCalls: 0, AiTokens: 0 };
      assert.deepEqual(await usage(server, tenant), expected);
      assert.deepEqual(await adminUsage(tenant), expected);
    });

    test('accounting after a scripted conversation: exact Messages, Replies, Notifications and ApiCalls (callApi to a local server)', async () => {
      const api = await WebhookReceiver.start();
      try {
        const bot = botFile(
          [
            { name: 'Start', actions: [text('Hi there')] },
            { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
          ],
          {
            triggers: [
              { match: 'hello', actions: [text('Hello!'), text('How are you?')] },
              { match: 'weather', actions: [{ type: 'callApi', method: 'GET', url: `${api.url}/weather`, variable: 'w' }, text('Checked')] },
              {
                match: 'twice',
                actions: [
                  { type: 'callApi', method: 'POST', url: `${api.url}/one`, body: '{}', variable: 'one' },
                  { type: 'callApi', method: 'POST', url: `${api.url}/two`, body: '{}', async: true },
                  text('Done twice'),
                ],
              },
            ],
          },
        );
        const tenant = await createTenant(server.client, bot);
        const zero = { Month: month(), Messages: 0, Replies: 0, Notifications: 0, ApiCalls: 0, AiTokens: 0 };
        assert.deepEqual(await usage(server, tenant), zero);
        const user = uid('count');
        const said: string[][] = [];
        said.push(texts(await chatOk(server, tenant.botToken, { UserId: user, Command: 'RESET' }))); // reply
        said.push(texts(await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello' }))); // message + reply
        said.push(texts(await chatOk(server, tenant.botToken, { UserId: user, Text: 'weather' }))); // message + reply + 1 call
        said.push(texts(await chatOk(server, tenant.botToken, { UserId: user, Text: 'twice' }))); // message + reply + 2 calls
        assert.deepEqual(said, [['Hi there'], ['Hello!', 'How are you?'], ['Checked'], ['Done twice']]);
        // Not counted: PENDING, READY, an injection, a variables-only request, state changes.
        assert.deepEqual((await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING' })).Parts, []);
        await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
        await inject(server, tenant, user, 'An operator note', 'OPERATOR');
        await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING', Variables: [{ Name: 'x', Value: '1' }] });
        await setState(tenant, { userid: user, state: 'takeover', operator: 'ann@example.org' });
        assert.deepEqual((await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello?' })).Parts, []); // message, no reply
        await setState(tenant, { userid: user, state: 'handover' });
        assert.deepEqual(texts(await chatOk(server, tenant.botToken, { UserId: user, Text: 'gibberish' })), ['Sorry?']); // message + reply
        // A second conversation of the same account counts into the same month.
        assert.deepEqual(texts(await chatOk(server, tenant.botToken, { UserId: uid('count2'), Text: 'hello' })), ['Hello!', 'How are you?']); // message + reply

        await api.waitFor((r) => r.calls.length >= 3, '3 API calls');
        await sleep(300);
        assert.deepEqual(api.calls.map((c) => `${c.method} ${c.path}`).sort(), ['GET /hook/weather', 'POST /hook/one', 'POST /hook/two']);
        const expected = { Month: month(), Messages: 6, Replies: 6, Notifications: 0, ApiCalls: 3, AiTokens: 0 };
        assert.deepEqual(await usage(server, tenant), expected);
        assert.deepEqual(await adminUsage(tenant), expected);
        // Another account's figures are its own.
        const other = await createTenant(server.client, hookBot());
        assert.deepEqual(await usage(server, other), zero);
      } finally {
        await api.close();
      }
    });
  });
}
