// The web channel's pieces for issue 27's widget: a message id that runs once however often the
// widget sends it again, a resumed history that says when each part was said, the visitor's
// context for the console (page, browser, language, name and e-mail, earlier conversations),
// the visitor's typing, the place in the queue with the expected reply time, and the operator's
// picture. The server's clock is the system's plus `ahead`, which the test moves on, so that waits
// last exactly what the test says.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { buttonCommand, summary, ORDER_QUESTION } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { addOperator, botIdOf, consoleClient, eventually, readEvents, signIn } from '../support/console-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sendWeb, setWeb, startWeb, web, webKeyOf } from '../support/web-kit.js';

const MINUTE = 60_000;

for (const kind of databaseKinds()) {
  describe(`web channel: what the widget needs to keep its place (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    let key: string;
    let botId: string;
    let c: ReturnType<typeof consoleClient>;
    let ahead = 0;
    before(async () => {
      server = await startTestServer(kind, {}, { clock: clockFrom(() => Date.now() + ahead) });
      support = await createTenant(server.client);
      key = await webKeyOf(server.client, support);
      botId = await botIdOf(server, support.botKey);
      await setWeb(server.client, support, { enabled: true, allowedOrigins: ['*'] });
      await addOperator(server.client, support.accountId, 'ann@example.org', undefined, 'Ann Lee');
      c = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
    });
    after(() => server.close());

    const userTexts = (reply: any) => reply.Parts.filter((p: any) => p.Type === 19).map((p: any) => p.Text);

    test('a message sent again with the same MessageId runs once; the second answer is the history, Duplicate: true', async () => {
      const started = await startWeb(server.client, key);
      const track = buttonCommand(started.Parts, 'Track an order');
      const first = await sendWeb(server.client, key, { UserId: started.UserId, Command: track, MessageId: 'm-00000001' });
      assert.deepEqual(summary(first.Parts), [ORDER_QUESTION]);
      assert.equal(first.Duplicate, undefined);
      const sent = await sendWeb(server.client, key, { UserId: started.UserId, Text: '123456', MessageId: 'm-00000002' });
      assert.equal(sent.Parts[0].Text, 'Order 123456 is on its way.');
      const again = await sendWeb(server.client, key, { UserId: started.UserId, Text: '123456', MessageId: 'm-00000002' });
      assert.equal(again.Duplicate, true);
      assert.deepEqual(userTexts(again), ['Track an order', '123456']);
      // a new id is a new message
      const other = await sendWeb(server.client, key, { UserId: started.UserId, Text: 'no', MessageId: 'm-00000003' });
      assert.equal(other.Duplicate, undefined);
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.deepEqual(userTexts(resumed), ['Track an order', '123456', 'no']);
    });

    test('a MessageId that is too short, too long or not [A-Za-z0-9_-]: 400 INVALID_REQUEST, nothing runs', async () => {
      const started = await startWeb(server.client, key);
      for (const MessageId of ['short', 'x'.repeat(65), 'has space in it', 'semi;colon1']) {
        const res = await web(server.client, 'POST', key, 'messages', { UserId: started.UserId, Text: 'hi', MessageId });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.deepEqual(userTexts(resumed), []);
    });

    test('a resumed conversation says when each part was said (Times) and when its control state changed (StateSince)', async () => {
      const before = Date.now();
      const started = await startWeb(server.client, key);
      await sendWeb(server.client, key, { UserId: started.UserId, Text: 'hello' });
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.equal(resumed.Times.length, resumed.Parts.length);
      for (const at of resumed.Times) assert.ok(Date.parse(at) >= before - 1000 && Date.parse(at) <= Date.now(), at);
      assert.ok(
        resumed.Times.every((at: string, i: number) => i === 0 || at >= resumed.Times[i - 1]),
        JSON.stringify(resumed.Times),
      );
      assert.ok(Date.parse(resumed.StateSince) <= Date.parse(resumed.Times[0]), resumed.StateSince);
    });

    const CONTEXT = {
      Url: 'https://shop.example.org/kettles?colour=red',
      Browser: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      Language: 'de-DE',
      Visitor: 'visitor-0000001',
    };
    const putAvatar = (AvatarUrl: unknown) => server.client.call('PUT', '/console/api/me/avatar', { AvatarUrl }, { headers: { cookie: c.cookie } });

    test("the page's context and what the bot asked for reach the console; earlier conversations of the visitor are listed", async () => {
      const first = await startWeb(server.client, key, { Context: CONTEXT });
      const second = await startWeb(server.client, key, { Context: { ...CONTEXT, Url: 'https://shop.example.org/checkout' } });
      // the order-number path asks for an e-mail into the well-known variable `email`
      await sendWeb(server.client, key, { UserId: second.UserId, Command: buttonCommand(second.Parts, 'Track an order') });
      await sendWeb(server.client, key, { UserId: second.UserId, Text: '123456' });
      await sendWeb(server.client, key, { UserId: second.UserId, Text: 'ann@example.com' });
      // a resume says where the visitor is now
      await startWeb(server.client, key, { UserId: second.UserId, Context: { ...CONTEXT, Url: 'https://shop.example.org/thanks' } });
      const res = await c.get(`${c.conversationPath(botId, second.UserId)}/visitor`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        { ...res.body, SeenAt: typeof res.body.SeenAt, Earlier: res.body.Earlier.map((e: any) => e.UserId) },
        {
          Name: null,
          Email: 'ann@example.com',
          PageUrl: 'https://shop.example.org/thanks',
          Browser: 'Chrome 131',
          UserAgent: CONTEXT.Browser,
          Language: 'de-DE',
          SeenAt: 'string',
          Earlier: [first.UserId],
        },
      );
      // forgetting a conversation forgets what its page said, and it is no one's earlier conversation
      const firstId = (await server.running.store.conversations.byUser(botId, first.UserId))!.id;
      assert.ok([200, 202].includes((await c.post(`${c.conversationPath(botId, first.UserId)}/forget`)).status));
      assert.ok(await eventually(async () => (await server.running.store.webVisitors.of(firstId)) === null));
      assert.deepEqual((await c.get(`${c.conversationPath(botId, second.UserId)}/visitor`)).body.Earlier, []);
      // a conversation without context: all null, no earlier ones
      const bare = await startWeb(server.client, key);
      const none = await c.get(`${c.conversationPath(botId, bare.UserId)}/visitor`);
      assert.deepEqual(none.body, { Name: null, Email: null, PageUrl: null, Browser: null, UserAgent: null, Language: null, SeenAt: null, Earlier: [] });
    });

    test('context out of bounds: 400 INVALID_REQUEST (unknown members are dropped, as everywhere)', async () => {
      for (const bad of [{ Url: 'javascript:alert(1)' }, { Url: `https://shop.example.org/${'a'.repeat(2048)}` }, { Browser: 'x'.repeat(257) }, { Language: 'de DE' }, { Visitor: 'short' }]) {
        const res = await web(server.client, 'POST', key, 'conversation', { Context: bad });
        assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
    });

    test("the visitor typing reaches the console stream, at most once every two seconds; never the visitor's own stream", async () => {
      const started = await startWeb(server.client, key);
      const read = await readEvents(`${server.url}/console/api/events`, {
        headers: { cookie: c.cookie },
        until: (events) => events.some((e) => e.Kind === 'visitorTyping'),
        opened: async () => {
          const typed = [];
          for (let i = 0; i < 3; i++) typed.push((await sendTyping(started.UserId)).Sent);
          assert.deepEqual(typed, [true, false, false]);
        },
      });
      assert.deepEqual(
        read.events.filter((e) => e.Kind === 'visitorTyping').map((e) => [e.BotId, e.UserId, e.Channel]),
        [[botId, started.UserId, 'web']],
      );
      const unknown = await web(server.client, 'POST', key, 'typing', { UserId: 'nobody-here' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
    });
    const sendTyping = async (UserId: string) => {
      const res = await web(server.client, 'POST', key, 'typing', { UserId });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    test('the queue: conversations waiting for a person are numbered by how long they have waited; others have no place', async () => {
      const waiting = [];
      for (let i = 0; i < 3; i++) {
        const started = await startWeb(server.client, key);
        await sendWeb(server.client, key, { UserId: started.UserId, Command: buttonCommand(started.Parts, 'Talk to a person') });
        waiting.push(started.UserId);
      }
      const position = async (userId: string) => (await web(server.client, 'GET', key, `queue?userid=${encodeURIComponent(userId)}`)).body;
      const before = await Promise.all(waiting.map(position));
      const base = before[0].Position;
      assert.deepEqual(
        before,
        [1, 2, 3].map((n) => ({ State: 1, Position: base + n - 1, ExpectedReplySeconds: null })),
      );
      assert.equal((await c.post(`${c.conversationPath(botId, waiting[0])}/takeover`)).status, 200);
      assert.deepEqual(await Promise.all(waiting.map(position)), [
        { State: 2, Position: null, ExpectedReplySeconds: null },
        { State: 1, Position: base, ExpectedReplySeconds: null },
        { State: 1, Position: base + 1, ExpectedReplySeconds: null },
      ]);
    });

    test("an operator's picture: set in the console (http/https only), shown to the visitor on resume and in state events", async () => {
      for (const bad of ['javascript:alert(1)', 'ftp://pics.example.org/a.png', `https://pics.example.org/${'a'.repeat(2048)}`, '', 42]) {
        const res = await putAvatar(bad);
        assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const set = await putAvatar('https://pics.example.org/ann.png');
      assert.deepEqual([set.status, set.body], [200, { AvatarUrl: 'https://pics.example.org/ann.png' }]);
      assert.deepEqual((await c.get('/me/avatar')).body, { AvatarUrl: 'https://pics.example.org/ann.png' });
      const started = await startWeb(server.client, key);
      const read = await readEvents(`${server.url}/web/${key}/events?userid=${encodeURIComponent(started.UserId)}`, {
        until: (events) => events.some((e) => e.State === 2),
        opened: () => c.post(`${c.conversationPath(botId, started.UserId)}/takeover`),
        timeoutMs: 15_000, // the default 5 s ran out on a loaded machine
      });
      assert.deepEqual(
        read.events.find((e) => e.State === 2),
        { State: 2, OperatorName: 'Ann Lee', OperatorAvatar: 'https://pics.example.org/ann.png' },
      );
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.deepEqual([resumed.OperatorName, resumed.OperatorAvatar], ['Ann Lee', 'https://pics.example.org/ann.png']);
      assert.deepEqual((await putAvatar(null)).body, { AvatarUrl: null });
      assert.equal((await startWeb(server.client, key, { UserId: started.UserId })).OperatorAvatar, null);
    });

    /** A visitor asks for a person now; the new wait's user id. */
    const ask = async () => {
      const started = await startWeb(server.client, key);
      await sendWeb(server.client, key, { UserId: started.UserId, Command: buttonCommand(started.Parts, 'Talk to a person') });
      return started.UserId as string;
    };
    /** A wait answered by an operator after `minutes`, then handed back. */
    const answered = async (minutes: number) => {
      const userId = await ask();
      ahead += minutes * MINUTE;
      const path = c.conversationPath(botId, userId);
      for (const [step, body] of [
        ['takeover', {}],
        ['messages', { Text: 'Hello, I am here.' }],
        ['handover', {}],
      ] as const) {
        const res = await c.post(`${path}/${step}`, body);
        assert.equal(res.status, 200, `${step}: ${res.text}`);
      }
      ahead += MINUTE;
    };
    /** Eight days on: the waits so far are older than the week counted; the session expired meanwhile. */
    const aWeekLater = async () => {
      ahead += 8 * 24 * 60 * MINUTE;
      c = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
    };

    test('expected reply: nothing with fewer than 5 answered waits of the last week, then their median; never for one that does not wait', async () => {
      await aWeekLater();
      await answered(0.5); // fast, but too old once the week moves on
      await aWeekLater();
      for (const minutes of [1, 2, 3, 10]) await answered(minutes);
      // a wait handed back with no operator message is no reply time
      const unanswered = await ask();
      ahead += 30 * MINUTE;
      for (const step of ['takeover', 'handover']) assert.equal((await c.post(`${c.conversationPath(botId, unanswered)}/${step}`)).status, 200);

      const waiting = await ask();
      const expected = async () => {
        const res = await web(server.client, 'GET', key, `queue?userid=${encodeURIComponent(waiting)}`);
        assert.equal(res.status, 200, res.text);
        return [res.body.State, res.body.Position === null, res.body.ExpectedReplySeconds];
      };
      assert.deepEqual(await expected(), [1, false, null], '4 answered waits are too few');
      await answered(4);
      assert.deepEqual(await expected(), [1, false, 180], '1, 2, 3, 4 and 10 minutes: the third of five');
      assert.equal((await c.post(`${c.conversationPath(botId, waiting)}/takeover`)).status, 200);
      assert.deepEqual(await expected(), [2, true, null]);
    });
  });
}
