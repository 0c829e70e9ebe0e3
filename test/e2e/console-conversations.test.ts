// The operator console API (issue 4): the account's conversations (requested first, then taken
// over, then by last activity), one conversation's transcript, control, operator messages that
// reach the custom-channel client through PENDING, other accounts refused, and the live stream.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chat, chatOk, summary, uid, WELCOME } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, readEvents, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`console conversations (${kind})`, () => {
    let server: TestServer;
    let now = Date.parse('2026-11-22T10:00:00Z');
    let mine: Tenant;
    let theirs: Tenant;
    let botId: string;
    let theirBotId: string;
    let c: ReturnType<typeof consoleClient>;
    const tick = () => (now += 1000);

    before(async () => {
      server = await startTestServer(kind, {}, { clock: clockFrom(() => now) });
      mine = await createTenant(server.client);
      theirs = await createTenant(server.client);
      botId = await botIdOf(server, mine.botKey);
      theirBotId = await botIdOf(server, theirs.botKey);
      await addOperator(server.client, mine.accountId, 'ann@example.org');
      await addOperator(server.client, theirs.accountId, 'zed@example.org');
      c = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
    });
    after(() => server.close());

    const path = (userId: string, bot = botId) => c.conversationPath(bot, userId);
    const state = (userId: string, body: Record<string, unknown>) => server.client.post('/custom/state', { userid: userId, ...body }, { token: mine.botToken });

    test('the list: requested first, then taken over, then by last activity; only this account’s bots', async () => {
      const [quiet, recent, requested, taken, requestedLater] = ['quiet', 'recent', 'requested', 'taken', 'requested2'].map((p) => uid(p));
      const other = uid('theirs');
      await chatOk(server, theirs.botToken, { UserId: other, Text: 'human' });
      tick();
      await chatOk(server, mine.botToken, { UserId: requested, Text: 'human' });
      tick();
      await chatOk(server, mine.botToken, { UserId: quiet });
      tick();
      await chatOk(server, mine.botToken, { UserId: taken });
      assert.equal((await state(taken, { state: 'takeover', operator: 'ann@example.org' })).status, 200);
      tick();
      await chatOk(server, mine.botToken, { UserId: requestedLater, Text: 'operator' });
      tick();
      await chatOk(server, mine.botToken, { UserId: recent, Text: 'hello there' });

      const res = await c.get('/conversations');
      assert.equal(res.status, 200, res.text);
      const listed = res.body.Conversations.filter((x: any) => [quiet, recent, requested, taken, requestedLater, other].includes(x.UserId));
      assert.deepEqual(
        listed.map((x: any) => [x.UserId, x.State]),
        [
          [requestedLater, 1],
          [requested, 1],
          [taken, 2],
          [recent, 0],
          [quiet, 0],
        ],
      );
      const first = listed[0];
      assert.equal(first.BotId, botId);
      assert.equal(first.BotName, 'Support Desk');
      assert.equal(first.Channel, 'custom');
      assert.equal(first.Preview, 'operator', 'a conversation waiting for a person shows what the visitor said');
      assert.equal(listed[3].Preview, WELCOME[0][1], 'others show their last message, whoever said it');
      assert.match(first.LastActivity, /^2026-11-22T10:00:\d\d\.000\+00:00$/);
      assert.equal(listed[2].Operator, 'ann@example.org');
      assert.equal(
        res.body.Conversations.some((x: any) => x.BotId === theirBotId),
        false,
      );
    });

    test("a conversation waiting for a person previews the visitor's problem, not the waiting text (issue 37)", async () => {
      const user = uid('brake');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      tick();
      const held = await chatOk(server, mine.botToken, { UserId: user, Text: 'My rear brake squeaks, order under ann@example.com' });
      assert.deepEqual(summary(held.Parts), [[0, 'A colleague will be with you shortly.']]);
      const listed = (await c.get('/conversations')).body.Conversations.find((x: any) => x.UserId === user);
      assert.equal(listed.Preview, 'My rear brake squeaks, order under ann@example.com');
      const opened = await c.get(path(user));
      assert.equal(opened.status, 200, opened.text);
      assert.equal(opened.body.Conversation.Preview, 'My rear brake squeaks, order under ann@example.com');
    });

    test('open: state and transcript with who said what; parts as stored', async () => {
      const user = uid('open');
      await chatOk(server, mine.botToken, { UserId: user });
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      const res = await c.get(path(user));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.Conversation.UserId, user);
      assert.equal(res.body.Conversation.State, 1);
      const lines = res.body.Transcript.map((l: any) => [l.Direction, summary(l.Parts)]);
      assert.deepEqual(lines, [
        [
          'BOT',
          [
            [0, 'Welcome to ACME support!'],
            [13, 'What can I do for you?'],
          ],
        ],
        ['USER', [[19, 'human']]],
        ['BOT', [[0, 'I am asking a colleague to join. Please hold on.']]],
      ]);
      assert.equal(res.body.Transcript[0].Parts[1].Parts.length > 0, true, 'buttons come with their parts');
    });

    test('other accounts’ conversations and unknown ones answer 404 to every console route', async () => {
      const other = uid('theirs');
      await chatOk(server, theirs.botToken, { UserId: other, Text: 'human' });
      const mineUser = uid('mine');
      await chatOk(server, mine.botToken, { UserId: mineUser });
      const targets = [path(other, theirBotId), path(mineUser, theirBotId), path(other, botId), path('nobody'), path(mineUser, 'no-such-bot')];
      for (const target of targets) {
        const answers = [
          await c.get(target),
          await c.post(`${target}/takeover`),
          await c.post(`${target}/handover`, { Mode: '*' }),
          await c.post(`${target}/ban`, { Days: 1 }),
          await c.post(`${target}/unban`),
          await c.post(`${target}/forget`),
          await c.post(`${target}/messages`, { Text: 'hi' }),
        ];
        for (const res of answers) {
          assert.equal(res.status, 404, `${target}: ${res.text}`);
          assert.equal(res.body.Code, 'CONVERSATION_NOT_FOUND');
        }
      }
      const theirState = await server.client.get(`/custom/state?userid=${other}`, { token: theirs.botToken });
      assert.equal(theirState.body.State, 1, 'untouched');
    });

    test('take over, write (the custom-channel client gets it with PENDING), hand back', async () => {
      const user = uid('talk');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      const early = await c.post(`${path(user)}/messages`, { Text: 'too early' });
      assert.equal(early.status, 409);
      assert.equal(early.body.Code, 'STATE_CONFLICT');

      const taken = await c.post(`${path(user)}/takeover`);
      assert.equal(taken.status, 200, taken.text);
      assert.deepEqual(taken.body, { UserId: user, State: 2, Operator: 'ann@example.org', BanExpiration: null, BanMessage: null });
      const sent = await c.post(`${path(user)}/messages`, { Text: 'Hello, Ann here.' });
      assert.equal(sent.status, 200, sent.text);
      assert.deepEqual(summary(sent.body.Parts), [[0, 'Hello, Ann here.']]);

      const pending = await chatOk(server, mine.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(summary(pending.Parts), [[0, 'Hello, Ann here.']]);
      assert.equal(pending.ControlType, 2);
      assert.deepEqual((await chatOk(server, mine.botToken, { UserId: user, Command: 'PENDING' })).Parts, [], 'delivered once');
      const opened = await c.get(path(user));
      assert.deepEqual(opened.body.Transcript.at(-1).Direction, 'OPERATOR');

      const back = await c.post(`${path(user)}/handover`, { Mode: 'viewshares' });
      assert.equal(back.status, 200, back.text);
      assert.equal(back.body.State, 0);
      assert.equal(back.body.Operator, null);
      const reply = await chatOk(server, mine.botToken, { UserId: user, Text: 'restart' });
      assert.equal(reply.ControlType, 0);
    });

    test('ban with days and message, unban, 409 for unban when not banned, 400 for bad input', async () => {
      const user = uid('ban');
      await chatOk(server, mine.botToken, { UserId: user });
      const banned = await c.post(`${path(user)}/ban`, { Days: 2, Message: 'Cool down' });
      assert.equal(banned.status, 200, banned.text);
      assert.deepEqual(banned.body, { UserId: user, State: 3, Operator: null, BanExpiration: '2026-11-24', BanMessage: 'Cool down' });
      const bounced = await chat(server, mine.botToken, { UserId: user, Text: 'hi' });
      assert.equal(bounced.status, 403);
      assert.equal((await c.post(`${path(user)}/takeover`)).status, 409);
      assert.equal((await c.post(`${path(user)}/unban`)).body.State, 0);
      const again = await c.post(`${path(user)}/unban`);
      assert.equal(again.status, 409);
      assert.equal(again.body.Code, 'STATE_CONFLICT');
      for (const body of [{ Days: 0 }, { Days: -1 }, { Days: 1.5 }, { Days: '2' }, { Message: 5 }]) {
        const res = await c.post(`${path(user)}/ban`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const badMode = await c.post(`${path(user)}/handover`, { Mode: 'keep' });
      assert.equal(badMode.status, 400);
      const empty = await c.post(`${path(user)}/messages`, { Text: '' });
      assert.equal(empty.status, 400);
    });

    test('forget → 202; the conversation leaves the list and cannot be opened', async () => {
      const user = uid('forget');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      const res = await c.post(`${path(user)}/forget`);
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(res.body, { UserId: user, State: 'forgetting' });
      const list = await c.get('/conversations');
      assert.equal(
        list.body.Conversations.some((x: any) => x.UserId === user),
        false,
      );
      assert.equal((await c.get(path(user))).status, 404);
    });

    test('the event stream relays this account’s messages and state changes, not other accounts’', async () => {
      const user = uid('live');
      const other = uid('theirs');
      await chatOk(server, mine.botToken, { UserId: user });
      await chatOk(server, theirs.botToken, { UserId: other });
      const read = await readEvents(`${server.url}/console/api/events`, {
        headers: { cookie: c.cookie },
        opened: async () => {
          await chatOk(server, theirs.botToken, { UserId: other, Text: 'human' });
          await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
        },
        until: (events) => events.some((e) => e.Kind === 'state' && e.UserId === user),
      });
      assert.equal(read.status, 200);
      assert.match(read.contentType, /^text\/event-stream/);
      // only these two users: an earlier test's forget may finish (a `forgotten` event) meanwhile
      const kinds = read.events.filter((e) => e.UserId === user || e.UserId === other).map((e) => [e.Kind, e.UserId, e.Direction ?? e.State]);
      assert.deepEqual(kinds, [
        ['message', user, 'USER'],
        ['message', user, 'BOT'],
        ['state', user, 1],
      ]);
      assert.deepEqual(summary(read.events[0].Parts), [[19, 'human']]);
      assert.equal(read.events[0].BotId, botId);
    });

    test('the event stream stops when the client disconnects, and needs a session', async () => {
      // Count live subscriptions on the bus: the stream's must be gone once the client hung up.
      const bus = server.running.services.events;
      const subscribe = bus.subscribe;
      let live = 0;
      bus.subscribe = (handler) => {
        const unsubscribe = subscribe.call(bus, handler);
        live++;
        return () => {
          live--;
          unsubscribe();
        };
      };
      try {
        await readEvents(`${server.url}/console/api/events`, { headers: { cookie: c.cookie }, until: () => true, opened: async () => assert.equal(live, 1) });
        for (let i = 0; i < 100 && live > 0; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(live, 0);
      } finally {
        bus.subscribe = subscribe;
      }
      const refused = await readEvents(`${server.url}/console/api/events`, { until: () => true });
      assert.equal(refused.status, 401);
      assert.equal(JSON.parse(refused.body).Code, 'TOKEN_MISSING');
    });
  });
}
