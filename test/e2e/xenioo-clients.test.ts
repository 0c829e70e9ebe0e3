// Xenioo's own published clients (issue 11, finding 12): their JSON serializers send every unset
// member as `null` and may send members we do not know. api.md Conventions: null means absent,
// unknown members are ignored. A whole conversation must run that way on both API generations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ASK_HUMAN, buttonCommand, ORDER_QUESTION, summary, uid, WELCOME } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A chat body as the C# client serializes it: every member present, unset ones null. */
const csharpBody = (set: Record<string, unknown>) => ({
  UserId: null,
  Command: null,
  Text: null,
  Parts: null,
  ForcedBehaviour: null,
  ForcedInteraction: null,
  ForcedBehaviourKey: null,
  Variables: null,
  Tags: null,
  DropTags: null,
  Channel: null,
  HistoryLimit: null,
  ClientVersion: '1.4.2', // a member this server does not know
  ...set,
});

const WHEN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

for (const kind of databaseKinds()) {
  describe(`Xenioo's C#-style clients (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
    });
    after(() => server.close());

    test('a token request with null bot members is an account token request', async () => {
      const res = await server.client.post('/authorization/integration', { AccountAPIKey: support.accountKey, BotAPIKey: null, BotAPISecret: null, Extra: 1 });
      assert.equal(res.status, 200, res.text);
      assert.equal(typeof res.body.token, 'string');
      const bots = await server.client.get('/bots', { token: res.body.token });
      assert.equal(bots.status, 200);
    });

    test('a whole conversation on /custom/* with every optional member null', async () => {
      const user = uid('csharp');
      const post = (set: Record<string, unknown>) => server.client.post('/custom/chat', csharpBody({ UserId: user, ...set }), { token: support.botToken });
      const started = await post({ Command: 'RESET' });
      assert.equal(started.status, 200, started.text);
      assert.deepEqual(summary(started.body.Parts), WELCOME);
      const clicked = await post({ Command: buttonCommand(started.body.Parts, 'Track an order') });
      assert.equal(clicked.status, 200, clicked.text);
      assert.deepEqual(summary(clicked.body.Parts), [ORDER_QUESTION]);
      const answered = await post({ Text: '123456' });
      assert.equal(answered.status, 200, answered.text);
      assert.equal(answered.body.Parts[0].Text, 'Order 123456 is on its way.');
      const pending = await post({ Command: 'PENDING' });
      assert.equal(pending.status, 200, pending.text);
      assert.deepEqual(pending.body.Parts, []);
      const ready = await post({ Command: 'READY' });
      assert.equal(ready.status, 200, ready.text);
      assert.deepEqual(summary(ready.body.Parts).slice(0, WELCOME.length), WELCOME);
      const values = await server.client.get(`/custom/values?userid=${user}&_=cachebuster`, { token: support.botToken });
      assert.equal(values.status, 200, values.text);
      assert.equal(values.body.UserId, user);
    });

    test('a variable whose Value is null is still deleted (null is meaningful there)', async () => {
      const user = uid('csharp-var');
      const post = (set: Record<string, unknown>) => server.client.post('/custom/chat', csharpBody({ UserId: user, ...set }), { token: support.botToken });
      assert.equal((await post({ Variables: [{ Name: 'color', Value: 'red' }] })).status, 200);
      const set = await server.client.get(`/custom/value?userid=${user}&type=variable&name=color`, { token: support.botToken });
      assert.deepEqual(set.body, { Value: 'red' });
      assert.equal((await post({ Command: 'READY', Variables: [{ Name: 'color', Value: null }] })).status, 200);
      const gone = await server.client.get(`/custom/value?userid=${user}&type=variable&name=color`, { token: support.botToken });
      assert.deepEqual(gone.body, { Value: null });
    });

    test('a whole conversation on /apihook/* with every optional member null', async () => {
      const user = uid('csharp-hook');
      const headers = { 'user-id': user };
      const post = (set: Record<string, unknown>) => server.client.post('/apihook/chat', csharpBody(set), { token: support.botKey, headers });
      const started = await post({ Command: 'RESET' });
      assert.equal(started.status, 200, started.text);
      assert.deepEqual(summary(started.body.Parts), WELCOME);
      const human = await post({ Text: 'human' });
      assert.equal(human.status, 200, human.text);
      assert.deepEqual(summary(human.body.Parts), [ASK_HUMAN]);
      const status = await server.client.post('/apihook/status', { UpdateType: 'set-tag', Name: 'vip', Value: null, UserId: null, Unknown: true }, { token: support.botKey, headers });
      assert.equal(status.status, 200, status.text);
      assert.deepEqual(status.body.Tags, ['vip']);
    });

    test('Creation is the time of each reply, not the start of the conversation', async () => {
      const user = uid('creation');
      const first = await server.client.post('/custom/chat', { UserId: user }, { token: support.botToken });
      await new Promise((resolve) => setTimeout(resolve, 25));
      const second = await server.client.post('/custom/chat', { UserId: user, Text: 'human' }, { token: support.botToken });
      assert.match(first.body.Creation, WHEN);
      assert.match(second.body.Creation, WHEN);
      assert.ok(Date.parse(second.body.Creation) > Date.parse(first.body.Creation), `${second.body.Creation} after ${first.body.Creation}`);
      assert.ok(Math.abs(Date.parse(second.body.Creation) - Date.now()) < 60_000);
    });

    test('DefaultBehaviour carries APIToken equal to APIKey (the C# model reads APIToken)', async () => {
      for (const path of ['/custom/config', '/apihook/config']) {
        const config = await server.client.get(path, { token: path.startsWith('/apihook') ? support.botKey : support.botToken });
        assert.equal(config.status, 200, config.text);
        assert.equal(typeof config.body.DefaultBehaviour.APIKey, 'string');
        assert.equal(config.body.DefaultBehaviour.APIToken, config.body.DefaultBehaviour.APIKey);
      }
    });
  });
}
