// Issue 27, the console as an inbox, through its API on both databases: search of every message
// with the database's full-text index (account-bound, forgotten words gone from the index),
// activity lines, resolve / reopen / snooze (a message or the clock opens again), transfer to a
// colleague or a team (round robin among members with the console open), teams, hostile input,
// and the console stream's `ready` event.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, eventually, openRaw, signIn, tracesOf } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { openSse, type SseStream } from '../support/sse.js';

for (const kind of databaseKinds()) {
  describe(`console inbox (${kind})`, () => {
    let server: TestServer;
    let database: TestDatabase;
    let now = Date.parse('2026-11-24T09:00:00Z');
    let mine: Tenant;
    let theirs: Tenant;
    let botId: string;
    let ann: ReturnType<typeof consoleClient>;
    let bob: ReturnType<typeof consoleClient>;
    let cat: ReturnType<typeof consoleClient>;
    let zed: ReturnType<typeof consoleClient>;
    let annId: string;
    let bobId: string;
    let catId: string;
    let zedId: string;
    const streams: SseStream[] = [];

    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, {}, { clock: clockFrom(() => now) });
      mine = await createTenant(server.client);
      theirs = await createTenant(server.client);
      botId = await botIdOf(server, mine.botKey);
      annId = (await addOperator(server.client, mine.accountId, 'ann@example.org', undefined, 'Ann Operator')).OperatorId;
      bobId = (await addOperator(server.client, mine.accountId, 'bob@example.org', undefined, 'Bob Helper')).OperatorId;
      catId = (await addOperator(server.client, mine.accountId, 'cat@example.org', undefined, 'Cat Third')).OperatorId;
      zedId = (await addOperator(server.client, theirs.accountId, 'zed@example.org', undefined, 'Zed Other')).OperatorId;
      ann = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
      bob = consoleClient(server.client, await signIn(server.client, 'bob@example.org'));
      cat = consoleClient(server.client, await signIn(server.client, 'cat@example.org'));
      zed = consoleClient(server.client, await signIn(server.client, 'zed@example.org'));
    });
    after(async () => {
      for (const s of streams) s.close();
      await server.close();
    });

    const path = (userId: string) => ann.conversationPath(botId, userId);
    const listed = async (userId: string) => (await ann.get('/conversations')).body.Conversations.find((x: any) => x.UserId === userId);
    /** Opens a console stream for the operator and waits for its `ready`. */
    const online = async (c: ReturnType<typeof consoleClient>) => {
      const stream = await openSse(`${server.url}/console/api/events`, { cookie: c.cookie });
      streams.push(stream);
      assert.equal(stream.status, 200);
      await stream.next((e) => e.event === 'ready');
      return stream;
    };

    test('search: every message of the account, by word prefix, newest hit per conversation; other accounts see nothing', async () => {
      const early = uid('early');
      await chatOk(server, mine.botToken, { UserId: early, Text: 'My Zeppelin parcel never arrived' });
      for (let i = 0; i < 3; i++) await chatOk(server, mine.botToken, { UserId: early, Text: `later message ${i}` });
      const other = uid('other');
      await chatOk(server, theirs.botToken, { UserId: other, Text: 'zeppelin as well' });
      const res = await ann.get('/search?q=zeppel%20PARC');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.Results.map((r: any) => [r.UserId, r.Direction, r.Text]),
        [[early, 'USER', 'My Zeppelin parcel never arrived']],
      );
      assert.equal(res.body.Results[0].BotId, botId);
      // operator text is searched too, also inside nested parts
      await chatOk(server, mine.botToken, { UserId: early, Text: 'Your refund of **42** euros is approved' }, { DIRECTION: 'OPERATOR' });
      assert.deepEqual(
        (await ann.get('/search?q=refund')).body.Results.map((r: any) => [r.UserId, r.Direction]),
        [[early, 'OPERATOR']],
      );
      assert.deepEqual((await zed.get('/search?q=refund')).body.Results, []);
      assert.deepEqual(
        (await zed.get('/search?q=zeppelin')).body.Results.map((r: any) => r.UserId),
        [other],
      );
      // query syntax of either database is only text here
      for (const q of ['"', 'a OR b', "'", 'x:*', '!!', '(', 'NEAR(a b)', '*']) {
        const r = await ann.get(`/search?q=${encodeURIComponent(q)}`);
        assert.equal(r.status, 200, `${q}: ${r.text}`);
      }
      assert.equal((await ann.get(`/search?q=${'a'.repeat(201)}`)).body.Code, 'INVALID_REQUEST');
      assert.equal((await ann.get('/search')).status, 400);
      // forgetting a user takes their words out of the index
      const conversation = (await server.running.store.conversations.byUser(botId, early))!;
      const raw = await openRaw(database);
      const ids = (await raw.all('SELECT id FROM messages WHERE conversation_id = $1', [conversation.id])).map((r) => Number(r.id));
      assert.ok(ids.length >= 8);
      assert.equal((await ann.post(`${path(early)}/forget`)).status, 202);
      assert.ok(await eventually(async () => Object.keys(await tracesOf(database, conversation.id, early)).length === 0), 'nothing left');
      assert.deepEqual((await ann.get('/search?q=zeppelin')).body.Results, []);
      try {
        if (kind === 'sqlite') {
          const left = (await raw.all("SELECT rowid FROM message_search WHERE message_search MATCH 'zeppelin OR refund OR later'")).map((r) => Number(r.rowid));
          assert.deepEqual(
            left.filter((id) => ids.includes(id)),
            [],
            'no index entry of a forgotten message',
          );
          assert.equal(left.length, 1, "the other account's message stays");
        }
      } finally {
        await raw.close();
      }
    });

    test('activity lines with the operator name; the list and the view name the operator of a takeover', async () => {
      const user = uid('act');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      now += 1000;
      await ann.post(`${path(user)}/takeover`);
      now += 1000;
      await ann.post(`${path(user)}/handover`, { Mode: '*' });
      now += 1000;
      await bob.post(`${path(user)}/ban`, { Days: 2 });
      now += 1000;
      await bob.post(`${path(user)}/unban`);
      const view = (await ann.get(path(user))).body;
      assert.deepEqual(
        view.Activity.map((a: any) => [a.Kind, a.Actor, a.Detail]),
        [
          ['takeover', 'Ann Operator', null],
          ['handover', 'Ann Operator', null],
          ['ban', 'Bob Helper', '2 d'],
          ['unban', 'Bob Helper', null],
        ],
      );
      await ann.post(`${path(user)}/takeover`);
      assert.equal((await listed(user)).OperatorName, 'Ann Operator');
      assert.equal((await ann.get(path(user))).body.Conversation.OperatorName, 'Ann Operator');
    });

    test('resolve hands back and leaves the open list until the user writes; reopen; snooze until the time or a message', async () => {
      const user = uid('res');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      await ann.post(`${path(user)}/takeover`);
      now += 1000;
      const resolved = await ann.post(`${path(user)}/resolve`);
      assert.equal(resolved.status, 200, resolved.text);
      assert.deepEqual(resolved.body, { Status: 'resolved' });
      assert.equal((await listed(user)).Status, 'resolved');
      assert.equal((await listed(user)).State, 0, 'handed back to the bot');
      now += 1000;
      await chatOk(server, mine.botToken, { UserId: user, Text: 'one more question' });
      assert.equal((await listed(user)).Status, 'open', 'a message opens it again');
      now += 1000;
      await ann.post(`${path(user)}/resolve`);
      assert.deepEqual((await ann.post(`${path(user)}/reopen`)).body, { Status: 'open' });
      assert.equal((await listed(user)).Status, 'open');

      const snoozed = await ann.post(`${path(user)}/snooze`, { Minutes: 5 });
      assert.equal(snoozed.status, 200, snoozed.text);
      assert.equal(snoozed.body.SnoozedUntil, new Date(now + 300_000).toISOString().replace('Z', '+00:00'));
      assert.equal((await listed(user)).Status, 'snoozed');
      now += 299_000;
      assert.equal((await listed(user)).Status, 'snoozed');
      now += 1000;
      assert.equal((await listed(user)).Status, 'open', 'the snooze ended');
      await ann.post(`${path(user)}/snooze`, { Minutes: 60 });
      now += 1000;
      await chatOk(server, mine.botToken, { UserId: user, Text: 'are you there?' });
      assert.equal((await listed(user)).Status, 'open', 'a message ends the snooze');
      for (const bad of [{}, { Minutes: 0 }, { Minutes: 44_641 }, { Minutes: 1.5 }, { Minutes: '60' }, { Minutes: null }]) {
        const r = await ann.post(`${path(user)}/snooze`, bad);
        assert.equal(r.status, 400, JSON.stringify(bad));
        assert.equal(r.body.Code, 'INVALID_REQUEST');
      }
      assert.equal((await zed.post(`${path(user)}/resolve`)).status, 404);
      const kinds = (await ann.get(path(user))).body.Activity.map((a: any) => a.Kind);
      assert.deepEqual(kinds, ['takeover', 'resolve', 'resolve', 'reopen', 'snooze', 'snooze']);
    });

    test('teams: created with members of the account only; a transfer goes round robin to the members online', async () => {
      const made = await ann.post('/teams', { Name: 'Billing', OperatorIds: [annId, bobId, catId] });
      assert.equal(made.status, 201, made.text);
      const teamId = made.body.TeamId;
      assert.deepEqual(made.body.Members.map((m: any) => m.Name).sort(), ['Ann Operator', 'Bob Helper', 'Cat Third']);
      assert.equal((await ann.post('/teams', { Name: 'Billing' })).body.Code, 'CONFLICT');
      assert.equal((await ann.post('/teams', { Name: 'X', OperatorIds: [zedId] })).body.Code, 'OPERATOR_NOT_FOUND');
      assert.equal((await ann.post('/teams', { Name: '   ' })).body.Code, 'INVALID_REQUEST');
      assert.equal((await ann.post('/teams', { Name: 'x'.repeat(81) })).body.Code, 'INVALID_REQUEST');
      assert.deepEqual((await zed.get('/teams')).body.Teams, []);

      // nobody online: the conversation waits in the team, unassigned
      const first = uid('tr');
      await chatOk(server, mine.botToken, { UserId: first, Text: 'human' });
      const waiting = await ann.post(`${path(first)}/transfer`, { TeamId: teamId });
      assert.equal(waiting.status, 200, waiting.text);
      assert.deepEqual(waiting.body, { AssignedTo: null, Team: { TeamId: teamId, Name: 'Billing' } });
      assert.deepEqual((await listed(first)).Team, { TeamId: teamId, Name: 'Billing' });

      // Bob and Cat online: they take turns (the one who got one longest ago first)
      await online(bob);
      await online(cat);
      const got: string[] = [];
      for (let i = 0; i < 4; i++) {
        const user = uid('rr');
        await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
        now += 1000;
        got.push((await ann.post(`${path(user)}/transfer`, { TeamId: teamId })).body.AssignedTo.Name);
      }
      assert.deepEqual(got.slice(2), got.slice(0, 2), `turns: ${got.join(', ')}`);
      assert.deepEqual([...got.slice(0, 2)].sort(), ['Bob Helper', 'Cat Third']);
      assert.equal((await ann.get('/teams')).body.Operators.find((o: any) => o.OperatorId === bobId).Online, true);

      // to a colleague: assigned to them, and a takeover becomes theirs
      const user = uid('col');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      await ann.post(`${path(user)}/takeover`);
      const moved = await ann.post(`${path(user)}/transfer`, { OperatorId: bobId });
      assert.equal(moved.body.AssignedTo.Name, 'Bob Helper');
      const row = await listed(user);
      assert.equal(row.Operator, 'bob@example.org');
      assert.equal(row.OperatorName, 'Bob Helper');
      assert.deepEqual((await ann.get(path(user))).body.Activity.at(-1), { Kind: 'transfer', Actor: 'Ann Operator', Detail: 'Bob Helper', At: new Date(now).toISOString().replace('Z', '+00:00') });

      for (const [body, code] of [
        [{}, 'INVALID_REQUEST'],
        [{ OperatorId: bobId, TeamId: teamId }, 'INVALID_REQUEST'],
        [{ OperatorId: zedId }, 'OPERATOR_NOT_FOUND'],
        [{ TeamId: 999999 }, 'TEAM_NOT_FOUND'],
        [{ TeamId: 'x' }, 'INVALID_REQUEST'],
      ] as const) {
        const r = await ann.post(`${path(user)}/transfer`, body);
        assert.equal(r.body.Code, code, JSON.stringify(body));
      }
      const members = await server.client.put(`/console/api/teams/${teamId}/members`, { OperatorIds: [annId] }, { headers: { cookie: ann.cookie } });
      assert.deepEqual(
        members.body.Members.map((m: any) => m.Name),
        ['Ann Operator'],
      );
      assert.equal((await server.client.delete(`/console/api/teams/${teamId}`, { headers: { cookie: zed.cookie } })).status, 404);
      assert.deepEqual((await server.client.delete(`/console/api/teams/${teamId}`, { headers: { cookie: ann.cookie } })).body, { Deleted: true });
      assert.equal((await listed(first)).Team, null, 'its conversations leave the team');
    });

    test('teams are changed by admins only: an agent reads them and transfers to one, and is refused every change', async () => {
      await addOperator(server.client, mine.accountId, 'agent@example.org', undefined, 'Ada Agent', 'agent');
      const agent = consoleClient(server.client, await signIn(server.client, 'agent@example.org'));
      const made = await ann.post('/teams', { Name: 'Support', OperatorIds: [annId] });
      assert.equal(made.status, 201, made.text);
      const teamId = made.body.TeamId;
      const before = (await ann.get('/teams')).body;
      const refused = [
        await agent.post('/teams', { Name: 'Mine' }),
        await server.client.put(`/console/api/teams/${teamId}/members`, { OperatorIds: [catId] }, { headers: { cookie: agent.cookie } }),
        await server.client.delete(`/console/api/teams/${teamId}`, { headers: { cookie: agent.cookie } }),
      ];
      assert.deepEqual(
        refused.map((r) => [r.status, r.body.Code, r.body.Role]),
        Array(3).fill([403, 'ROLE_FORBIDDEN', 'agent']),
      );
      assert.deepEqual((await agent.get('/teams')).body, before, 'nothing changed, and the agent reads the same');
      const user = uid('ag');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      const moved = await agent.post(`${path(user)}/transfer`, { TeamId: teamId });
      assert.equal(moved.status, 200, moved.text);
      assert.deepEqual(moved.body.Team, { TeamId: teamId, Name: 'Support' });
      const members = await server.client.put(`/console/api/teams/${teamId}/members`, { OperatorIds: [annId, bobId] }, { headers: { cookie: ann.cookie } });
      assert.deepEqual([members.status, members.body.Members.map((m: any) => m.Name).sort()], [200, ['Ann Operator', 'Bob Helper']]);
    });
  });
}
