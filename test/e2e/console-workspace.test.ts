// Issue 15, console workspace: assignment (takeover assigns; explicit assign/unassign), the real
// time a user waits (StateSince), private notes (console only, deleted by forget), canned
// responses per account (CRUD, hostile input), and the operator typing event reaching the widget.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, eventually, signIn, tracesOf } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { openSse } from '../support/sse.js';
import { startWeb, webKeyOf } from '../support/web-kit.js';

for (const kind of databaseKinds()) {
  describe(`console workspace (${kind})`, () => {
    let server: TestServer;
    let database: TestDatabase;
    let now = Date.parse('2026-11-24T09:00:00Z');
    let mine: Tenant;
    let theirs: Tenant;
    let botId: string;
    let ann: ReturnType<typeof consoleClient>;
    let bob: ReturnType<typeof consoleClient>;
    let zed: ReturnType<typeof consoleClient>;
    let bobId: string;
    let zedId: string;

    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, {}, { clock: clockFrom(() => now) });
      mine = await createTenant(server.client);
      theirs = await createTenant(server.client);
      botId = await botIdOf(server, mine.botKey);
      await addOperator(server.client, mine.accountId, 'ann@example.org', undefined, 'Ann Operator');
      bobId = (await addOperator(server.client, mine.accountId, 'bob@example.org', undefined, 'Bob Helper')).OperatorId;
      zedId = (await addOperator(server.client, theirs.accountId, 'zed@example.org', undefined, 'Zed Other')).OperatorId;
      ann = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
      bob = consoleClient(server.client, await signIn(server.client, 'bob@example.org'));
      zed = consoleClient(server.client, await signIn(server.client, 'zed@example.org'));
    });
    after(() => server.close());

    const path = (userId: string) => ann.conversationPath(botId, userId);
    const listed = async (c: ReturnType<typeof consoleClient>, userId: string) => {
      const res = await c.get('/conversations');
      assert.equal(res.status, 200, res.text);
      return res.body.Conversations.find((x: any) => x.UserId === userId);
    };

    test('StateSince is when the user started waiting, not the last message', async () => {
      const user = uid('waits');
      await chatOk(server, mine.botToken, { UserId: user });
      now += 60_000;
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      const askedAt = new Date(now).toISOString().replace('Z', '+00:00');
      now += 7 * 60_000;
      await chatOk(server, mine.botToken, { UserId: user, Text: 'Still looking into it.' }, { DIRECTION: 'BOT' });
      const row = await listed(ann, user);
      assert.equal(row.State, 1);
      assert.equal(row.StateSince, askedAt);
      assert.notEqual(row.LastActivity, askedAt);
      assert.equal((await ann.get(path(user))).body.Conversation.StateSince, askedAt);
    });

    test('takeover assigns the operator; assign to a colleague, unassign; another account’s operator is refused', async () => {
      const user = uid('assign');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      assert.equal((await listed(ann, user)).AssignedTo, null);
      const taken = await ann.post(`${path(user)}/takeover`);
      assert.equal(taken.status, 200, taken.text);
      const annId = (await ann.get('/me')).body.OperatorId;
      assert.deepEqual((await listed(bob, user)).AssignedTo, { OperatorId: annId, Name: 'Ann Operator', Email: 'ann@example.org' });

      const toBob = await ann.post(`${path(user)}/assign`, { OperatorId: bobId });
      assert.equal(toBob.status, 200, toBob.text);
      assert.deepEqual(toBob.body, { AssignedTo: { OperatorId: bobId, Name: 'Bob Helper', Email: 'bob@example.org' } });
      assert.equal((await ann.get(path(user))).body.Conversation.AssignedTo.OperatorId, bobId);

      const foreign = await ann.post(`${path(user)}/assign`, { OperatorId: zedId });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.Code, 'OPERATOR_NOT_FOUND');
      assert.equal((await listed(ann, user)).AssignedTo.OperatorId, bobId, 'nothing half applied');

      const mineAgain = await bob.post(`${path(user)}/assign`, {});
      assert.equal(mineAgain.body.AssignedTo.OperatorId, bobId);
      const off = await ann.post(`${path(user)}/unassign`, {});
      assert.equal(off.status, 200, off.text);
      assert.deepEqual(off.body, { AssignedTo: null });
      assert.equal((await listed(ann, user)).AssignedTo, null);

      assert.equal((await zed.post(`${path(user)}/assign`, {})).body.Code, 'CONVERSATION_NOT_FOUND');
      const hostile = await ann.post(`${path(user)}/assign`, { OperatorId: ['x'] });
      assert.equal(hostile.status, 400);
      assert.equal(hostile.body.Code, 'INVALID_REQUEST');
    });

    test('notes: console only, with author and time; never in the transcript; forget deletes them and the assignment', async () => {
      const user = uid('notes');
      await chatOk(server, mine.botToken, { UserId: user, Text: 'human' });
      await ann.post(`${path(user)}/takeover`);
      const added = await ann.post(`${path(user)}/notes`, { Text: '  VIP customer <b>careful</b>  ' });
      assert.equal(added.status, 201, added.text);
      assert.equal(added.body.Author, 'Ann Operator');
      assert.equal(added.body.Text, 'VIP customer <b>careful</b>');
      assert.equal(added.body.At, new Date(now).toISOString().replace('Z', '+00:00'));
      await bob.post(`${path(user)}/notes`, { Text: 'Refund approved' });
      const opened = await bob.get(path(user));
      assert.deepEqual(
        opened.body.Notes.map((n: any) => [n.Author, n.Text]),
        [
          ['Ann Operator', 'VIP customer <b>careful</b>'],
          ['Bob Helper', 'Refund approved'],
        ],
      );
      assert.equal(JSON.stringify(opened.body.Transcript).includes('VIP customer'), false);
      const ready = await chatOk(server, mine.botToken, { UserId: user, Command: 'READY' });
      assert.equal(JSON.stringify(ready).includes('VIP customer'), false, 'the user never sees a note');

      for (const bad of [{ Text: '' }, { Text: '   ' }, { Text: 'x'.repeat(4001) }, { Text: 5 }, {}]) {
        const res = await ann.post(`${path(user)}/notes`, bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      assert.equal((await zed.post(`${path(user)}/notes`, { Text: 'hi' })).status, 404);

      const conversation = (await server.running.store.conversations.byUser(botId, user))!;
      const traces = await tracesOf(database, conversation.id, user);
      assert.equal(traces.conversation_notes, 2);
      assert.equal(traces.conversation_assignments, 1);
      assert.equal((await ann.post(`${path(user)}/forget`)).status, 202);
      assert.ok(await eventually(async () => Object.keys(await tracesOf(database, conversation.id, user)).length === 0), 'nothing left');
    });

    test('canned responses: per account CRUD, unique shortcuts, hostile input refused', async () => {
      const created = await ann.post('/canned', { Shortcut: 'Hello', Text: 'Hello! How can I help?' });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.Shortcut, 'hello');
      const id = created.body.CannedId;
      assert.equal((await ann.post('/canned', { Shortcut: 'hello', Text: 'again' })).body.Code, 'CONFLICT');
      await bob.post('/canned', { Shortcut: 'bye', Text: 'Goodbye!' });
      assert.deepEqual(
        (await ann.get('/canned')).body.CannedResponses.map((c: any) => c.Shortcut),
        ['bye', 'hello'],
      );
      assert.deepEqual((await zed.get('/canned')).body, { CannedResponses: [] });

      const changed = await server.client.put(`/console/api/canned/${id}`, { Shortcut: 'hi', Text: 'Hi there' }, { headers: { cookie: ann.cookie } });
      assert.equal(changed.status, 200, `${changed.text} ${id}`);
      assert.deepEqual(changed.body, { CannedId: id, Shortcut: 'hi', Text: 'Hi there' });
      const clash = await server.client.put(`/console/api/canned/${id}`, { Shortcut: 'bye', Text: 'x' }, { headers: { cookie: ann.cookie } });
      assert.equal(clash.status, 409);
      const foreign = await server.client.put(`/console/api/canned/${id}`, { Shortcut: 'mine', Text: 'x' }, { headers: { cookie: zed.cookie } });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.Code, 'CANNED_RESPONSE_NOT_FOUND');
      assert.equal((await server.client.delete(`/console/api/canned/${id}`, { headers: { cookie: zed.cookie } })).status, 404);

      for (const bad of [{ Shortcut: 'two words', Text: 'x' }, { Shortcut: 'ok', Text: '  ' }, { Shortcut: '<script>', Text: 'x' }, { Shortcut: 'x'.repeat(41), Text: 'x' }, { Text: 'x' }]) {
        const res = await ann.post('/canned', bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      assert.equal((await server.client.delete('/console/api/canned/abc', { headers: { cookie: ann.cookie } })).status, 400);
      assert.equal((await server.client.delete('/console/api/canned/1', {})).status, 401);
      const cross = await server.client.delete(`/console/api/canned/${id}`, { headers: { cookie: ann.cookie, origin: 'https://evil.example' } });
      assert.equal(cross.status, 403);
      assert.equal(cross.body.Code, 'ORIGIN_FORBIDDEN');

      const gone = await server.client.delete(`/console/api/canned/${id}`, { headers: { cookie: ann.cookie } });
      assert.deepEqual([gone.status, gone.body], [200, { Deleted: true }]);
      assert.deepEqual(
        (await ann.get('/canned')).body.CannedResponses.map((c: any) => c.Shortcut),
        ['bye'],
      );
    });

    test('typing: only in a taken-over conversation; the widget gets the operator name, never the e-mail', async () => {
      const key = await webKeyOf(server.client, mine);
      const user = (await startWeb(server.client, key)).UserId;
      const stream = await openSse(`${server.url}/web/${key}/events?userid=${encodeURIComponent(user)}`);
      try {
        await stream.next((e) => e.event === 'ready');
        const early = await ann.post(`${path(user)}/typing`);
        assert.equal(early.status, 409);
        assert.equal(early.body.Code, 'STATE_CONFLICT');
        assert.equal((await ann.post(`${path(user)}/takeover`)).status, 200);
        const sent = await ann.post(`${path(user)}/typing`);
        assert.deepEqual([sent.status, sent.body], [200, { Sent: true }]);
        const typing = await stream.next((e) => e.event === 'typing');
        assert.deepEqual(typing.data, { OperatorName: 'Ann Operator' });
        assert.equal((await zed.post(`${path(user)}/typing`)).status, 404);
      } finally {
        stream.close();
      }
    });
  });
}
