// api.md section 14: the first-generation /apihook twins of the custom channel.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ASK_HUMAN, buttonCommand, chatOk, ORDER_QUESTION, summary, uid, valuesOf, variablesOf, WELCOME } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`/apihook twins (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
    });
    after(() => server.close());

    const hookChat = (user: string | null, body: unknown, token = support.botKey) => server.client.post('/apihook/chat', body, { token, headers: user === null ? {} : { 'user-id': user } });

    test('the bot API key works as bearer on /apihook even with simplified auth off (and not on /custom)', async () => {
      const user = uid('hook');
      const custom = await server.client.post('/custom/chat', { UserId: user }, { token: support.botKey });
      assert.equal(custom.status, 401);
      assert.equal(custom.body.Code, 'TOKEN_INVALID');
      const customConfig = await server.client.get('/custom/config', { token: support.botKey });
      assert.equal(customConfig.status, 401);

      const res = await hookChat(user, {});
      assert.equal(res.status, 200);
      assert.deepEqual(summary(res.body.Parts), WELCOME);
      assert.equal(res.body.UserId, user);
      const viaToken = await hookChat(user, { Text: 'human' }, support.botToken);
      assert.equal(viaToken.status, 200);
      assert.deepEqual(summary(viaToken.body.Parts), [ASK_HUMAN]);

      const wrong = await hookChat(user, {}, 'not-a-key');
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.Code, 'TOKEN_INVALID');
      const account = await hookChat(user, {}, support.accountToken);
      assert.equal(account.status, 403);
      assert.equal(account.body.Code, 'TOKEN_SCOPE');
    });

    test('POST /apihook/chat behaves like /custom/chat: Text, Command, READY', async () => {
      const user = uid('hook');
      const welcome = await hookChat(user, { Command: 'RESET' });
      const clicked = await hookChat(user, { Command: buttonCommand(welcome.body.Parts, 'Track an order') });
      assert.equal(clicked.status, 200);
      assert.deepEqual(summary(clicked.body.Parts), [ORDER_QUESTION]);
      const answered = await hookChat(user, { text: '123456' });
      assert.deepEqual(summary(answered.body.Parts), [
        [0, 'Order 123456 is on its way.'],
        [6, "May we e-mail you updates? Type your address, or 'no'."],
      ]);
      const hookReady = await hookChat(user, { Command: 'READY' });
      const customReady = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      // the same reply but for Creation, the time each was made
      assert.deepEqual({ ...hookReady.body, Creation: null }, { ...customReady, Creation: null });
      assert.deepEqual(summary(customReady.Parts), [...WELCOME, [19, 'Track an order'], ORDER_QUESTION, [19, '123456'], ...summary(answered.body.Parts)]);
    });

    test('GET /apihook/status equals GET /custom/values; user id by header or query', async () => {
      const user = uid('hook');
      await hookChat(user, { Text: 'agent' });
      const byHeader = await server.client.get('/apihook/status', { token: support.botKey, headers: { 'user-id': user } });
      assert.equal(byHeader.status, 200);
      assert.deepEqual(byHeader.body, await valuesOf(server, support.botToken, user));
      assert.equal(byHeader.body.Context.BehaviorName, 'Escalation');
      assert.equal(byHeader.body.Context.ControlType, 1);
      const byQuery = await server.client.get(`/apihook/status?userid=${user}`, { token: support.botKey });
      assert.deepEqual(byQuery.body, byHeader.body);
      const unknown = await server.client.get('/apihook/status', { token: support.botKey, headers: { 'user-id': uid('none') } });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
      const noUser = await server.client.get('/apihook/status', { token: support.botKey });
      assert.equal(noUser.status, 400);
      assert.equal(noUser.body.Code, 'INVALID_REQUEST');
    });

    test('GET /apihook/config equals GET /custom/config', async () => {
      const hook = await server.client.get('/apihook/config', { token: support.botKey });
      const custom = await server.client.get('/custom/config', { token: support.botToken });
      assert.equal(hook.status, 200);
      assert.deepEqual(hook.body, custom.body);
      assert.equal(custom.body.Name, 'Support Desk');
      assert.equal(custom.body.EnableTypeSpeed, true);
      assert.equal(custom.body.WordsPerMinute, 600);
      assert.equal(custom.body.Avatar, 'https://example.org/avatars/support.png');
      assert.equal(custom.body.DefaultBehaviour.Name, 'Main');
    });

    test('POST /apihook/status: set-var, del-var, set-tag, del-tag', async () => {
      const user = uid('hook');
      await hookChat(user, {});
      const post = (body: unknown) => server.client.post('/apihook/status', body, { token: support.botKey, headers: { 'user-id': user } });

      const setVar = await post({ UpdateType: 'set-var', Name: 'plan', Value: 'gold' });
      assert.equal(setVar.status, 200);
      assert.equal(setVar.body.UserId, user);
      assert.equal(setVar.body.Variables.find((v: any) => v.Name === 'plan')?.Value, 'gold');
      assert.equal((await variablesOf(server, support.botToken, user)).plan, 'gold');
      await post({ UpdateType: 'set-var', Name: 'count', Value: 3 });
      assert.equal((await variablesOf(server, support.botToken, user)).count, '3');

      const delVar = await post({ UpdateType: 'del-var', Name: 'plan' });
      assert.equal(delVar.status, 200);
      assert.equal((await variablesOf(server, support.botToken, user)).plan, undefined);

      const setTag = await post({ UpdateType: 'set-tag', Name: 'vip' });
      assert.equal(setTag.status, 200);
      assert.deepEqual(setTag.body.Tags, ['vip']);
      // the flow sees it
      const reset = await chatOk(server, support.botToken, { UserId: user });
      assert.equal(reset.Parts[1].Text, 'Good to see you again, valued customer.');
      const delTag = await post({ updatetype: 'del-tag', name: 'vip' });
      assert.equal(delTag.status, 200);
      assert.deepEqual((await valuesOf(server, support.botToken, user)).Tags, []);
      // the position was not touched
      assert.equal((await valuesOf(server, support.botToken, user)).Context.InteractionName, 'Welcome');
    });

    test('POST /apihook/status refuses bad updates and unknown users', async () => {
      const user = uid('hook');
      await hookChat(user, {});
      const post = (body: unknown, headers: Record<string, string> = { 'user-id': user }) => server.client.post('/apihook/status', body, { token: support.botKey, headers });
      for (const body of [{ UpdateType: 'set-everything', Name: 'x' }, { UpdateType: 'set-var', Name: 'x' }, { UpdateType: 'set-tag' }, { UpdateType: 'set-var', Name: '', Value: '1' }]) {
        const res = await post(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const unknown = await post({ UpdateType: 'set-var', Name: 'x', Value: '1' }, { 'user-id': uid('none') });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
      const noUser = await post({ UpdateType: 'set-var', Name: 'x', Value: '1' }, {});
      assert.equal(noUser.status, 400);
      assert.equal((await variablesOf(server, support.botToken, user)).x, undefined);
    });
  });
}
