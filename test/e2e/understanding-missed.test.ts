// understanding.md: GET /bots/{APIKey}/missed — user texts that reached a fallback, grouped by the
// text trimmed and lower-cased, most frequent first, owned by their conversation (forget removes them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, text, uid } from '../support/chat-kit.js';
import { eventually } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createAccount, createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const bot = () =>
  botFile(
    [
      { name: 'Start', start: true, actions: [text('Hi')] },
      { name: 'Ask', actions: [{ type: 'input', question: 'Number?', expect: 'number', variable: 'n', onSuccess: [text('ok')] }] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    { triggers: [{ match: 'ask', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Ask' }] }] },
  );

for (const kind of databaseKinds()) {
  describe(`understanding: missed texts (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, bot());
    });
    after(() => server.close());

    const missed = (query = '', t: Tenant = tenant) => server.client.get(`/bots/${t.botKey}/missed${query}`, { token: t.accountToken });

    test('grouped by trimmed lower-cased text, most frequent first, with where they were last missed; only fallbacks count', async () => {
      const ann = uid('ann');
      const bob = uid('bob');
      await chatOk(server, tenant.botToken, { UserId: ann });
      await chatOk(server, tenant.botToken, { UserId: bob });
      for (const t of ['Where is my parcel', '  where is my PARCEL ', 'refund?']) await chatOk(server, tenant.botToken, { UserId: ann, Text: t });
      await chatOk(server, tenant.botToken, { UserId: bob, Text: 'WHERE IS MY PARCEL' });
      // a trigger and a wrong answer to an input are not misses
      await chatOk(server, tenant.botToken, { UserId: bob, Text: 'ask' });
      await chatOk(server, tenant.botToken, { UserId: bob, Text: 'not a number' });
      const res = await missed();
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.Result.map((r: any) => [r.Text, r.Count, r.Behaviour, r.Interaction]),
        [
          // where the conversation stood when the text came: bob's (the latest) was still at Start
          ['where is my parcel', 3, 'Main', 'Start'],
          ['refund?', 1, 'Main', 'Fallback'],
        ],
      );
      assert.match(res.body.Result[0].LastAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
      assert.deepEqual(
        (await missed('?limit=1')).body.Result.map((r: any) => r.Text),
        ['where is my parcel'],
      );
      assert.deepEqual((await missed('?LIMIT=1')).body.Result.length, 1);
    });

    test('limit: 1 to 1000, anything else is 400; another account gets 403', async () => {
      for (const q of ['?limit=0', '?limit=1001', '?limit=abc', '?limit=-1', '?limit=1.5']) {
        const res = await missed(q);
        assert.equal(res.status, 400, q);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      assert.equal((await missed('?limit=1000')).status, 200);
      const stranger = await accountToken(server.client, (await createAccount(server.client)).AccountAPIKey);
      assert.equal((await server.client.get(`/bots/${tenant.botKey}/missed`, { token: stranger })).status, 403);
    });

    test('forgetting a user removes what they wrote from the list', async () => {
      const own = await createTenant(server.client, bot());
      const ann = uid('ann');
      const bob = uid('bob');
      for (const u of [ann, bob]) await chatOk(server, own.botToken, { UserId: u });
      await chatOk(server, own.botToken, { UserId: ann, Text: 'my secret address is 1 Elm St' });
      await chatOk(server, own.botToken, { UserId: ann, Text: 'shared words' });
      await chatOk(server, own.botToken, { UserId: bob, Text: 'shared words' });
      assert.deepEqual(
        (await missed('', own)).body.Result.map((r: any) => [r.Text, r.Count]),
        [
          ['shared words', 2],
          ['my secret address is 1 elm st', 1],
        ],
      );
      const forget = await server.client.post('/custom/state', { UserId: ann, State: 'forget' }, { token: own.botToken });
      assert.equal(forget.status, 202, forget.text);
      assert.ok(await eventually(async () => (await missed('', own)).body.Result.length === 1));
      assert.deepEqual(
        (await missed('', own)).body.Result.map((r: any) => [r.Text, r.Count]),
        [['shared words', 1]],
      );
    });
  });
}
