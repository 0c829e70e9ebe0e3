// bot-format.md "System variables" and "Later additions": no request, on any route, writes a
// system variable (user_id, channel, …); the web channel (anonymous visitors) sets only the
// variables the bot lists in `settings.channels.web.acceptVariables`, and ignores the others.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chat, chatOk, text, uid, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { setWeb, startWeb, webKeyOf } from '../support/web-kit.js';

/** A bot with a secret default (the kind a callApi would send somewhere) and its web channel on. */
const secretBot = () =>
  botFile([{ name: 'Hello', actions: [text('Hello {{name|stranger}}')] }], {
    variables: { apiKey: 'bot-secret', name: '' },
    settings: { channels: { web: { enabled: true, allowedOrigins: ['*'] } } },
  });

for (const kind of databaseKinds()) {
  describe(`system variables are never written by a request (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let key: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, secretBot());
      key = await webKeyOf(server.client, tenant);
    });
    after(() => server.close());

    test('web start: Variables not in acceptVariables (empty by default) are ignored, system ones included', async () => {
      const started = await startWeb(server.client, key, { Variables: { user_id: 'x', channel: 'custom', apiKey: 'evil', name: 'Mallory' } });
      assert.equal(started.Parts[0].Text, 'Hello stranger');
      const variables = await variablesOf(server, tenant.botToken, started.UserId);
      assert.equal(variables.user_id, started.UserId);
      assert.equal(variables.channel, 'web');
      assert.equal(variables.apiKey, 'bot-secret');
      assert.equal(variables.name, '');
      assert.equal((await server.client.get(`/custom/values?userid=x`, { token: tenant.botToken })).status, 404);
    });

    test('web start with acceptVariables: ["name"]: name is set, the rest still ignored (list form too)', async () => {
      const patched = await server.client.patch(`/bots/${tenant.botKey}/settings`, { channels: { web: { acceptVariables: ['name'] } } }, { token: tenant.accountToken });
      assert.equal(patched.status, 200, patched.text);
      const file = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.deepEqual(file.body.settings.channels.web.acceptVariables, ['name']);
      try {
        const started = await startWeb(server.client, key, { Variables: { user_id: 'x', channel: 'custom', apiKey: 'evil', name: 'Ann' } });
        assert.equal(started.Parts[0].Text, 'Hello Ann');
        const variables = await variablesOf(server, tenant.botToken, started.UserId);
        assert.deepEqual([variables.user_id, variables.channel, variables.apiKey, variables.name], [started.UserId, 'web', 'bot-secret', 'Ann']);
        const listed = await startWeb(server.client, key, {
          Variables: [
            { Name: 'name', Value: 'Bob' },
            { Name: 'apiKey', Value: 'evil' },
          ],
        });
        assert.equal(listed.Parts[0].Text, 'Hello Bob');
        assert.equal((await variablesOf(server, tenant.botToken, listed.UserId)).apiKey, 'bot-secret');
      } finally {
        await setWeb(server.client, tenant, { acceptVariables: [] });
      }
    });

    test('acceptVariables may not name a system variable: 400 INVALID_BOT, settings unchanged', async () => {
      const res = await server.client.patch(`/bots/${tenant.botKey}/settings`, { channels: { web: { acceptVariables: ['name', 'user_id'] } } }, { token: tenant.accountToken });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.Code, 'INVALID_BOT');
      assert.equal(res.body.Problems[0].Path, '$.settings.channels.web.acceptVariables[1]');
      const file = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.deepEqual(file.body.settings.channels.web.acceptVariables ?? [], []);
    });

    test('custom chat Variables naming a system variable: 400 INVALID_REQUEST naming it, nothing changed', async () => {
      const user = uid('sysvar');
      await chatOk(server, tenant.botToken, { UserId: user });
      const before = await variablesOf(server, tenant.botToken, user);
      for (const [body, name] of [
        [{ UserId: user, Variables: { user_id: 'x', name: 'Ann' } }, 'user_id'],
        [
          {
            UserId: user,
            Variables: [
              { Name: 'name', Value: 'Ann' },
              { Name: 'channel', Value: 'web' },
            ],
          },
          'channel',
        ],
        [{ UserId: user, Variables: { last_user_text: null } }, 'last_user_text'],
        [{ UserId: user, Command: 'READY', Variables: { creation_date: '2000-01-01' } }, 'creation_date'],
        [{ UserId: user, Text: 'hi', Variables: { api_status: '200' } }, 'api_status'],
      ] as const) {
        const res = await chat(server, tenant.botToken, body);
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
        assert.equal(res.body.Field, `Variables.${name}`);
        assert.match(res.body.Message, new RegExp(name));
      }
      // A new conversation is not created by a refused request either.
      const fresh = uid('sysvar-new');
      const refused = await chat(server, tenant.botToken, { UserId: fresh, Variables: { user_id: 'someone-else' } });
      assert.equal(refused.status, 400);
      assert.equal((await server.client.get(`/custom/values?userid=${fresh}`, { token: tenant.botToken })).status, 404);
      assert.deepEqual(await variablesOf(server, tenant.botToken, user), before);
    });

    test('injections (DIRECTION BOT/OPERATOR) and /apihook/status set-var, del-var: the same 400', async () => {
      const user = uid('sysvar-hook');
      await chatOk(server, tenant.botToken, { UserId: user });
      const before = await variablesOf(server, tenant.botToken, user);
      const injected = await chat(server, tenant.botToken, { UserId: user, Text: 'from an operator', Variables: { channel: 'web' } }, { DIRECTION: 'OPERATOR' });
      assert.equal(injected.status, 400, injected.text);
      assert.equal(injected.body.Code, 'INVALID_REQUEST');
      assert.equal(injected.body.Field, 'Variables.channel');
      const hook = (body: unknown) => server.client.post('/apihook/status', body, { token: tenant.botKey, headers: { 'user-id': user } });
      for (const body of [
        { UpdateType: 'set-var', Name: 'user_id', Value: 'x' },
        { UpdateType: 'del-var', Name: 'channel' },
      ]) {
        const res = await hook(body);
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
        assert.equal(res.body.Field, 'Name');
      }
      const history = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.equal(
        history.Parts.some((p: any) => p.Text === 'from an operator'),
        false,
        'the refused injection stored nothing',
      );
      assert.deepEqual(await variablesOf(server, tenant.botToken, user), before);
      // Other variables still work on every route.
      assert.equal((await hook({ UpdateType: 'set-var', Name: 'name', Value: 'Ann' })).status, 200);
      assert.equal((await variablesOf(server, tenant.botToken, user)).name, 'Ann');
    });
  });
}
