// The web channel's live stream (Server-Sent Events): injections and turns made through
// POST /custom/chat with CHANNEL web reach the browser at once; the widget's own turns are not
// echoed to it; heartbeats; a closed stream stops listening.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buttonCommand, chatOk, summary } from '../support/chat-kit.js';
import { addOperator } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, startTestServerOn, type TestServer } from '../support/server.js';
import { openSse, type SseStream } from '../support/sse.js';
import { sendWeb, setWeb, startWeb, webKeyOf } from '../support/web-kit.js';

const SHOP = 'https://shop.example.org';

for (const kind of databaseKinds()) {
  describe(`web channel: live stream (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    let key: string;
    const open: SseStream[] = [];
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
      key = await webKeyOf(server.client, support);
    });
    after(async () => {
      for (const s of open) s.close();
      await server.close();
    });

    const listen = async (userId: string, client?: string, headers: Record<string, string> = {}) => {
      const query = `userid=${encodeURIComponent(userId)}${client ? `&client=${client}` : ''}`;
      const stream = await openSse(`${server.url}/web/${key}/events?${query}`, headers);
      open.push(stream);
      if (stream.status === 200) await stream.next((e) => e.event === 'ready');
      return stream;
    };
    const messages = (stream: SseStream) => stream.events.filter((e) => e.event === 'message');

    test('the stream: text/event-stream, a ready event, then BOT and OPERATOR injections the moment they are written', async () => {
      const started = await startWeb(server.client, key);
      const user = started.UserId;
      const stream = await listen(user);
      assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.deepEqual(stream.events[0], { event: 'ready', data: { UserId: user } });

      const operator = await chatOk(server, support.botToken, { UserId: user, Text: 'Hi, this is Ann from support.' }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
      const first = await stream.next((e) => e.event === 'message');
      assert.equal(first.data.Direction, 'OPERATOR');
      assert.deepEqual(first.data.Parts, operator.Parts);
      assert.equal(first.data.EnableUserChat, false);
      assert.equal(first.data.ControlType, 0);

      const bot = await chatOk(server, support.botToken, { UserId: user, Parts: [{ Type: 3, Text: 'Your label', Url: 'https://example.org/label.png' }] }, { channel: 'WEB', direction: 'bot' });
      const second = await stream.next((e) => e.event === 'message' && e.data.Direction === 'BOT');
      assert.deepEqual(second.data.Parts, bot.Parts);
      // injected on the web channel: nothing is queued for a custom-channel PENDING poll
      assert.deepEqual((await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' }, { CHANNEL: 'web' })).Parts, []);
      // and both are in the history the widget gets when it resumes
      const resumed = await startWeb(server.client, key, { UserId: user });
      assert.deepEqual(resumed.Parts.slice(-2), [...operator.Parts, ...bot.Parts]);
    });

    test('DIRECTION USER with CHANNEL web runs the flow; the user text and the answer reach the browser', async () => {
      const started = await startWeb(server.client, key);
      const user = started.UserId;
      const stream = await listen(user);
      const reply = await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(started.Parts, 'Track an order') }, { CHANNEL: 'web' });
      const answer = await stream.next((e) => e.event === 'message' && e.data.Direction === 'BOT');
      assert.deepEqual(answer.data.Parts, reply.Parts);
      assert.equal(answer.data.EnableUserChat, true, 'the input is enabled where the flow now waits');
      const said = messages(stream).find((e) => e.data.Direction === 'USER')!;
      assert.deepEqual(summary(said.data.Parts), [[19, 'Track an order']]);
      assert.ok(messages(stream).indexOf(said) < messages(stream).indexOf(answer));
    });

    test("the widget's own turns are not echoed on its stream; another tab's are", async () => {
      const started = await startWeb(server.client, key, { ClientId: 'tab-a' });
      const user = started.UserId;
      const tabA = await listen(user, 'tab-a');
      const tabB = await listen(user, 'tab-b');
      await sendWeb(server.client, key, { UserId: user, ClientId: 'tab-a', Command: buttonCommand(started.Parts, 'Browse products') });
      const inB = await tabB.next((e) => e.event === 'message' && e.data.Direction === 'BOT');
      assert.equal(inB.data.Parts[0].Type, 5);
      // an injection afterwards reaches both; by then tab A would have had the echo
      await chatOk(server, support.botToken, { UserId: user, Text: 'marker' }, { DIRECTION: 'OPERATOR' });
      await tabA.next((e) => e.event === 'message' && e.data.Parts[0]?.Text === 'marker');
      assert.deepEqual(
        messages(tabA).map((e) => e.data.Direction),
        ['OPERATOR'],
      );
      await tabB.next((e) => e.event === 'message' && e.data.Parts[0]?.Text === 'marker');
    });

    test('control-state changes reach the stream', async () => {
      const started = await startWeb(server.client, key);
      const stream = await listen(started.UserId);
      const res = await server.client.post(`/custom/state?userid=${started.UserId}&state=takeover&operator=ann@example.org`, {}, { token: support.botToken });
      assert.equal(res.status, 200, res.text);
      const state = await stream.next((e) => e.event === 'state');
      // no operator of the account has this e-mail: no name to show the visitor
      assert.deepEqual(state.data, { State: 2, OperatorName: null, OperatorAvatar: null }, 'never the e-mail of the operator');
    });

    test('an operator of the account who takes over is named to the visitor (never by e-mail alone), live and on resume', async () => {
      await addOperator(server.client, support.accountId, 'lee@example.org', 'correct horse battery', 'Lee Park');
      const started = await startWeb(server.client, key);
      const stream = await listen(started.UserId);
      const res = await server.client.post(`/custom/state?userid=${started.UserId}&state=takeover&operator=LEE@example.org`, {}, { token: support.botToken });
      assert.equal(res.status, 200, res.text);
      const state = await stream.next((e) => e.event === 'state');
      assert.deepEqual(state.data, { State: 2, OperatorName: 'Lee Park', OperatorAvatar: null });
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.equal(resumed.ControlType, 2);
      assert.equal(resumed.OperatorName, 'Lee Park');
      const back = await server.client.post(`/custom/state?userid=${started.UserId}&state=handover`, {}, { token: support.botToken });
      assert.equal(back.status, 200, back.text);
      assert.deepEqual((await stream.next((e) => e.event === 'state' && e.data.State === 0)).data, { State: 0, OperatorName: null, OperatorAvatar: null });
      assert.equal((await startWeb(server.client, key, { UserId: started.UserId })).OperatorName, null);
    });

    test('heartbeats keep an idle stream open; a closed stream stops listening', async () => {
      const started = await startWeb(server.client, key);
      // Counts the live subscriptions the web channel holds on the event bus.
      const bus = server.running.services.events;
      const subscribe = bus.subscribe;
      let active = 0;
      bus.subscribe = (handler) => {
        active++;
        const off = subscribe.call(bus, handler);
        return () => {
          active--;
          off();
        };
      };
      server.running.services.web.heartbeatMs = 50;
      try {
        const stream = await listen(started.UserId);
        await stream.nextComment((c) => c === 'heartbeat');
        assert.equal(active, 1);
        stream.close();
        const deadline = Date.now() + 3000;
        while (active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.equal(active, 0);
      } finally {
        server.running.services.web.heartbeatMs = 15_000;
        bus.subscribe = subscribe;
      }
    });

    test('the stream checks the origin and the conversation like every web route', async () => {
      const tenant = await createTenant(server.client);
      const tenantKey = await webKeyOf(server.client, tenant);
      await setWeb(server.client, tenant, { enabled: true, allowedOrigins: [SHOP] });
      const started = await startWeb(server.client, tenantKey, {}, SHOP);
      const url = `${server.url}/web/${tenantKey}/events?userid=${started.UserId}`;
      const refused = await openSse(url, { origin: 'https://evil.example' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.Code, 'ORIGIN_FORBIDDEN');
      const allowed = await openSse(url, { origin: SHOP });
      open.push(allowed);
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers.get('access-control-allow-origin'), SHOP);
      await allowed.next((e) => e.event === 'ready');
      const unknown = await openSse(`${server.url}/web/${tenantKey}/events?userid=nobody`, { origin: SHOP });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
    });
  });

  if (kind === 'postgres') {
    test('two nodes on one database: a browser on node B sees what node A wrote (web channel, postgres)', async () => {
      const database = await createTestDatabase(kind);
      const nodeA = await startTestServerOn(database);
      const nodeB = await startTestServerOn(database);
      try {
        const tenant = await createTenant(nodeA.client);
        const key = await webKeyOf(nodeA.client, tenant);
        const started = await startWeb(nodeB.client, key, { ClientId: 'tab-b' });
        const stream = await openSse(`${nodeB.url}/web/${key}/events?userid=${started.UserId}&client=tab-b`);
        try {
          await stream.next((e) => e.event === 'ready');
          // the tab's own turn, served by node A, is still recognised as its own on node B
          await sendWeb(nodeA.client, key, { UserId: started.UserId, ClientId: 'tab-b', Command: buttonCommand(started.Parts, 'Browse products') });
          const injected = await chatOk(nodeA, tenant.botToken, { UserId: started.UserId, Text: 'From node A' }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
          const event = await stream.next((e) => e.event === 'message');
          assert.deepEqual(event.data.Parts, injected.Parts);
          assert.deepEqual(stream.events.filter((e) => e.event === 'message').length, 1);
        } finally {
          stream.close();
        }
      } finally {
        await nodeB.close();
        await nodeA.close();
        await database.drop();
      }
    });
  }
}
