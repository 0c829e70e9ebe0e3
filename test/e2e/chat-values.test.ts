// api.md sections 4 (position), 5 (one value), 6 (all values).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buttonCommand, chatOk, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`conversation position and values (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    let other: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
      other = await createTenant(server.client);
    });
    after(() => server.close());

    const get = (path: string, token = support.botToken) => server.client.get(path, { token });

    /** A conversation that went through the whole order path: tag has_order, e-mail, privacy flag on. */
    async function orderedConversation(user: string) {
      const welcome = await chatOk(server, support.botToken, { UserId: user, Tags: ['vip'] });
      await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Track an order') });
      await chatOk(server, support.botToken, { UserId: user, Text: '#123456' });
      const thanks = await chatOk(server, support.botToken, { UserId: user, Text: 'ann@example.org' });
      assert.equal(thanks.Parts[0].Text, 'Thanks, we will write to ann@example.org.');
    }

    test('GET /custom/position: the current behaviour and interaction; 404 for an unknown user', async () => {
      const user = uid('pos');
      await chatOk(server, support.botToken, { UserId: user, ForcedBehaviour: 'Orders' });
      const res = await get(`/custom/position?userid=${user}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { UserId: user, BehaviourName: 'Orders', InteractionName: 'Ask Number' });
      const upper = await get(`/custom/position?UserId=${user}`);
      assert.deepEqual(upper.body, res.body);
      const unknown = await get(`/custom/position?userid=${uid('none')}`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
      // conversations belong to one bot
      const foreign = await get(`/custom/position?userid=${user}`, other.botToken);
      assert.equal(foreign.status, 404);
      const missing = await get('/custom/position');
      assert.equal(missing.status, 400);
      assert.equal(missing.body.Code, 'INVALID_REQUEST');
    });

    test('GET /custom/value: variables, tags and privacy flags', async () => {
      const user = uid('value');
      await orderedConversation(user);
      const value = async (query: string) => {
        const res = await get(`/custom/value?userid=${user}&${query}`);
        assert.equal(res.status, 200, `${query}: ${res.text}`);
        return res.body;
      };
      assert.deepEqual(await value('type=variable&name=email'), { Value: 'ann@example.org' });
      assert.deepEqual(await value('type=variable&name=order_number'), { Value: '#123456' });
      assert.deepEqual(await value('type=variable&name=company'), { Value: 'ACME' });
      assert.deepEqual(await value('type=variable&name=nothing_here'), { Value: null });
      assert.deepEqual(await value('type=tag&name=has_order'), { Value: true });
      assert.deepEqual(await value('type=tag&name=vip'), { Value: true });
      assert.deepEqual(await value('type=tag&name=absent'), { Value: false });
      assert.deepEqual(await value('type=privacy'), { Value: true });
      assert.deepEqual(await value('type=privacy&name=personal_data_processing'), { Value: true });
      assert.deepEqual(await value('type=privacy&name=marketing'), { Value: false });
      assert.deepEqual(await value('TYPE=Variable&NAME=email'), { Value: 'ann@example.org' });

      const fresh = uid('value');
      await chatOk(server, support.botToken, { UserId: fresh });
      const flag = await get(`/custom/value?userid=${fresh}&type=privacy`);
      assert.deepEqual(flag.body, { Value: false });
    });

    test('GET /custom/value: 400 for another type or a missing name, 404 for an unknown user', async () => {
      const user = uid('value');
      await chatOk(server, support.botToken, { UserId: user });
      for (const query of ['type=cookie&name=x', 'type=variable', 'type=tag', 'type=variable&name=', 'name=x']) {
        const res = await get(`/custom/value?userid=${user}&${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const unknown = await get(`/custom/value?userid=${uid('none')}&type=variable&name=x`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
    });

    test('GET /custom/values: the exact shape, BehaviorName spelled for compatibility', async () => {
      const user = uid('values');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const res = await get(`/custom/values?userid=${user}`);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['UserId', 'Variables', 'Tags', 'PrivacyFlags', 'Context']);
      const byName = (a: any, b: any) => a.Name.localeCompare(b.Name);
      // the conversation's start, made just before its first reply (whose Creation is the reply's time)
      const started = res.body.Variables.find((v: any) => v.Name === 'creation_date')?.Value;
      assert.ok(Date.parse(started) <= Date.parse(welcome.Creation) && Date.parse(welcome.Creation) - Date.parse(started) < 10_000);
      assert.deepEqual(
        { ...res.body, Variables: [...res.body.Variables].sort(byName) },
        {
          UserId: user,
          Variables: [
            { Name: 'channel', Value: 'custom' },
            { Name: 'company', Value: 'ACME' },
            { Name: 'creation_date', Value: started },
            { Name: 'user_id', Value: user },
          ],
          Tags: [],
          PrivacyFlags: [{ Name: 'personal_data_processing', Enabled: false }],
          Context: { BehaviorName: 'Main', InteractionName: 'Welcome', Channel: 'custom', ControlType: 0 },
        },
      );

      const ordered = uid('values');
      await orderedConversation(ordered);
      const full = (await get(`/custom/values?userid=${ordered}`)).body;
      assert.deepEqual(full.Tags, ['vip', 'has_order']);
      assert.deepEqual(full.PrivacyFlags, [{ Name: 'personal_data_processing', Enabled: true }]);
      assert.deepEqual(full.Context, { BehaviorName: 'Main', InteractionName: 'Anything Else', Channel: 'custom', ControlType: 0 });
      const variables = Object.fromEntries(full.Variables.map((v: any) => [v.Name, v.Value]));
      assert.equal(variables.email, 'ann@example.org');
      assert.equal(variables.email_answer, 'ann@example.org');
      assert.equal(variables.order_number, '#123456');
      assert.equal(variables.last_user_text, 'ann@example.org');
      assert.equal(variables.last_command, 'Track an order');
      assert.ok(full.Variables.every((v: any) => Object.keys(v).join() === 'Name,Value' && typeof v.Value === 'string'));

      const unknown = await get(`/custom/values?userid=${uid('none')}`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
    });

    test('the read routes need a bot token', async () => {
      const user = uid('auth');
      await chatOk(server, support.botToken, { UserId: user });
      for (const path of [`/custom/position?userid=${user}`, `/custom/values?userid=${user}`, `/custom/value?userid=${user}&type=tag&name=x`]) {
        const none = await server.client.get(path);
        assert.equal(none.status, 401, path);
        assert.equal(none.body.Code, 'TOKEN_MISSING');
        const account = await get(path, support.accountToken);
        assert.equal(account.status, 403, path);
        assert.equal(account.body.Code, 'TOKEN_SCOPE');
        const key = await get(path, support.botKey);
        assert.equal(key.status, 401, path);
        assert.equal(key.body.Code, 'TOKEN_INVALID');
      }
    });
  });
}
