// api.md section 8, `state=forget`: 202, then within 5 s no row of the conversation is left in ANY
// table (read straight from the database: conversations, messages, shares, the webhook outbox,
// anything with a conversation_id or user_id), the same user id starts fresh, and a forget
// interrupted by a stop completes when the next server starts on the same database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chat, chatOk, summary, text, uid, valuesOf } from '../support/chat-kit.js';
import { eventually, tracesOf } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

/** The support bot posting its custom-channel replies to a port where nobody listens: deliveries stay pending. */
const webhookBot = () => {
  const file = supportBot();
  file.settings = { ...file.settings, channels: { custom: { webhookUrl: 'http://127.0.0.1:9/hook', includeAllChannels: true } } };
  return file;
};

for (const kind of databaseKinds()) {
  describe(`forget, api.md 8 (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let hooked: Tenant;
    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database);
      tenant = await createTenant(server.client);
      hooked = await createTenant(server.client, webhookBot());
    });
    after(async () => {
      await server.close();
      await database.drop();
    });

    const post = (params: Record<string, unknown>, token = tenant.botToken) => server.client.post('/custom/state', params, { token });
    const conversationOf = async (t: Tenant, user: string) => {
      const bot = await server.running.store.bots.byApiKey(t.botKey);
      const c = await server.running.store.conversations.byUser(bot!.id, user);
      assert.ok(c, `conversation ${user}`);
      return c;
    };

    /** A conversation with variables, tags, history, shares and queued operator messages. */
    async function richConversation(t: Tenant, prefix: string): Promise<string> {
      const user = uid(prefix);
      await chatOk(server, t.botToken, { UserId: user, Variables: { email: 'u@example.org' }, Tags: ['vip'] });
      await chatOk(server, t.botToken, { UserId: user, Text: 'human' });
      for (const mode of ['view', 'takeover', 'auto']) {
        assert.equal((await server.client.post('/custom/share', { UserId: user, Mode: mode, Hours: 3 }, { token: t.botToken })).status, 200);
      }
      assert.equal((await post({ userid: user, state: 'takeover', operator: 'ann@example.org' }, t.botToken)).status, 200);
      await chatOk(server, t.botToken, { UserId: user, Text: 'queued for you' }, { DIRECTION: 'OPERATOR' });
      return user;
    }

    test('202 {UserId, State: "forgetting"}, then within 5 s no trace in any table; the same user id starts fresh', async () => {
      const user = await richConversation(tenant, 'forget');
      const conversation = await conversationOf(tenant, user);
      const before = await tracesOf(database, conversation.id, user);
      assert.ok(before.conversations && before.messages && before.shares, `traces before: ${JSON.stringify(before)}`);

      const res = await post({ userid: user, state: 'forget' });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(res.body, { UserId: user, State: 'forgetting' });
      assert.ok(await eventually(async () => Object.keys(await tracesOf(database, conversation.id, user)).length === 0), 'gone within 5 s');
      assert.deepEqual(await tracesOf(database, conversation.id, user), {});

      const fresh = await chatOk(server, tenant.botToken, { UserId: user });
      assert.deepEqual(summary(fresh.Parts), [
        [0, 'Welcome to ACME support!'],
        [13, 'What can I do for you?'],
      ]);
      assert.equal(fresh.ControlType, 0);
      const values = await valuesOf(server, tenant.botToken, user);
      assert.equal(
        values.Variables.some((v: any) => v.Name === 'email'),
        false,
      );
      assert.deepEqual(values.Tags, []);
      assert.deepEqual((await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING' })).Parts, [], 'no queued message survived');
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(ready.Parts, fresh.Parts);
    });

    test('pending webhook deliveries of the conversation are deleted too', async () => {
      const user = await richConversation(hooked, 'forget-hooked');
      const conversation = await conversationOf(hooked, user);
      const before = await tracesOf(database, conversation.id, user);
      assert.ok(before.outbox, `webhook deliveries are pending before: ${JSON.stringify(before)}`);
      assert.equal((await post({ userid: user, state: 'forget' }, hooked.botToken)).status, 202);
      assert.ok(await eventually(async () => Object.keys(await tracesOf(database, conversation.id, user)).length === 0), 'gone within 5 s');
    });

    test('forget works from any state (banned included) and is idempotent while it runs', async () => {
      const user = uid('forget-banned');
      await chatOk(server, tenant.botToken, { UserId: user });
      await post({ userid: user, state: 'ban', days: 3 });
      const conversation = await conversationOf(tenant, user);
      assert.equal((await post({ userid: user, state: 'forget' })).status, 202);
      const again = await post({ userid: user, state: 'forget' });
      assert.ok([202, 404].includes(again.status), `${again.status} ${again.text}`);
      assert.ok(await eventually(async () => Object.keys(await tracesOf(database, conversation.id, user)).length === 0));
      assert.equal((await chat(server, tenant.botToken, { UserId: user, Text: 'hi' })).status, 200, 'the ban went with it');
    });

    test('while it is being forgotten the conversation answers 423 CONVERSATION_FORGETTING', async () => {
      const user = uid('forgetting');
      await chatOk(server, tenant.botToken, { UserId: user });
      const conversation = await conversationOf(tenant, user);
      // The once-a-second maintenance finishes an interrupted forget: held still while it is caught half-way.
      await server.running.maintenance.stop();
      assert.equal(await server.running.store.conversations.save({ ...conversation, forgetting: true }), true);
      for (const res of [
        await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken }),
        await post({ userid: user, state: 'ban' }),
        await post({ userid: user, state: 'takeover', operator: '*' }),
        await chat(server, tenant.botToken, { UserId: user, Text: 'hi' }),
      ]) {
        assert.equal(res.status, 423, res.text);
        assert.equal(res.body.Code, 'CONVERSATION_FORGETTING');
      }
      assert.equal((await post({ userid: user, state: 'forget' })).status, 202);
      server.running.maintenance.start();
    });

    test('a forget interrupted by a stop completes when the next server starts on the same database', async () => {
      const user = await richConversation(tenant, 'forget-restart');
      const conversation = await conversationOf(tenant, user);
      // The turn marked it (as `forget` does in its transaction); the server stops before the deletion.
      assert.equal(await server.running.store.conversations.save({ ...conversation, forgetting: true }), true);
      await server.close();
      assert.ok((await tracesOf(database, conversation.id, user)).conversations, 'still there while no server runs');

      server = await startTestServerOn(database);
      assert.deepEqual(await tracesOf(database, conversation.id, user), {});
      const fresh = await chatOk(server, tenant.botToken, { UserId: user });
      assert.equal(fresh.ControlType, 0);
    });

    test('forget by the bot flow (`forget` action) leaves no trace either', async () => {
      const forgetful = await createTenant(server.client, botFile([{ name: 'Start', actions: [text('Hi')] }], { triggers: [{ match: 'forget me', actions: [text('Bye'), { type: 'forget' }] }] }));
      const user = uid('forget-flow');
      await chatOk(server, forgetful.botToken, { UserId: user, Variables: { a: '1' } });
      assert.equal((await server.client.post('/custom/share', { UserId: user, Mode: 'view', Hours: 1 }, { token: forgetful.botToken })).status, 200);
      const conversation = await conversationOf(forgetful, user);
      const bye = await chatOk(server, forgetful.botToken, { UserId: user, Text: 'forget me' });
      assert.deepEqual(summary(bye.Parts), [[0, 'Bye']]);
      assert.ok(await eventually(async () => Object.keys(await tracesOf(database, conversation.id, user)).length === 0));
    });
  });
}
