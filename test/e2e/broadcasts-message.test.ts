// A broadcast that carries its own message (docs/broadcasts.md "A message of its own", issue 37
// item 8): created with text and buttons, delivered to web conversations with that text and those
// buttons, a click on a button starts its behaviour and counts once; bad messages are 400 with a
// Code and create nothing; the preview counts the audience exactly; web deliveries are Delivered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk, uid } from '../support/chat-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { Broadcasts, movableServer } from '../support/broadcast-kit.js';
import { sendWeb, setWeb, startWeb, webKeyOf } from '../support/web-kit.js';
import type { TestServer } from '../support/server.js';

const SHOP = 'https://shop.example.com/sale';

for (const kind of databaseKinds()) {
  describe(`broadcasts with a message of their own (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    before(async () => {
      database = await createTestDatabase(kind);
      ({ server } = await movableServer(database));
    });
    after(async () => {
      await server.close();
      await database.drop();
    });

    async function webBot() {
      const made = await Broadcasts.forNewBot(server);
      await setWeb(server.client, made.tenant, { enabled: true, allowedOrigins: ['*'], acceptVariables: ['first_name'] });
      return { ...made, key: await webKeyOf(server.client, made.tenant) };
    }

    test('a message with a behaviour button and a link reaches each web visitor as written; a click starts the behaviour and counts once; web deliveries are Delivered', async () => {
      const { tenant, api, key } = await webBot();
      const visitors: string[] = [];
      for (const name of ['Ann', 'Bo']) visitors.push((await startWeb(server.client, key, { Variables: { first_name: name } })).UserId);
      await chatOk(server, tenant.botToken, { UserId: uid('api-user') });
      assert.deepEqual(await api.preview({ Channels: ['web'] }), { Count: 2, Sample: visitors }, 'the count is exact: the API user is not on the web');

      const message = {
        Text: 'Hi {{first_name|there}}, our sale starts today.',
        Buttons: [
          { Title: 'Show me', Behaviour: 'Promo' },
          { Title: 'Open the shop', Url: SHOP },
        ],
      };
      const created = await api.create({ Behaviour: undefined, Message: message, Audience: { Channels: ['web'] } });
      assert.deepEqual([created.Behaviour, created.Message, created.Status], [null, message, 'scheduled']);
      const done = await api.until(created.BroadcastId, (b) => b.Status === 'done', 'the message broadcast runs and ends');
      assert.deepEqual(done.Counts, { Audience: 2, Pending: 0, Sent: 2, Delivered: 2, Failed: 0, Skipped: 0, Clicked: 0, Reasons: {} });

      const resumed = await startWeb(server.client, key, { UserId: visitors[0] });
      const got = resumed.Parts.at(-1);
      assert.deepEqual([got.Type, got.Text], [13, 'Hi Ann, our sale starts today.']);
      assert.deepEqual(
        got.Parts.map((p: any) => [p.Type, p.Text, p.Command, p.Url ?? null]),
        [
          [1, 'Show me', `broadcast:${created.BroadcastId}:0`, null],
          [17, 'Open the shop', null, SHOP],
        ],
      );
      assert.equal((await startWeb(server.client, key, { UserId: visitors[1] })).Parts.at(-1).Text, 'Hi Bo, our sale starts today.');

      const clicked = await sendWeb(server.client, key, { UserId: visitors[0], Command: `broadcast:${created.BroadcastId}:0` });
      assert.equal(clicked.Parts.at(-1).Text, 'Our sale starts today, Ann! ', 'the button started Promo');
      await sendWeb(server.client, key, { UserId: visitors[0], Command: `broadcast:${created.BroadcastId}:0` });
      assert.equal((await api.get(created.BroadcastId)).Counts.Clicked, 1, 'two clicks of one visitor count once');
      const transcript = await startWeb(server.client, key, { UserId: visitors[0] });
      assert.ok(
        transcript.Parts.some((p: any) => p.Type === 19 && p.Text === 'Show me'),
        'the history keeps the click as what the visitor said',
      );
    });

    test("a behaviour broadcast to web visitors is Delivered too; a click naming another bot's broadcast runs the fallback", async () => {
      const { api, key } = await webBot();
      const visitor = (await startWeb(server.client, key)).UserId;
      const b = await api.create({ Audience: { Channels: ['web'] } });
      const done = await api.until(b.BroadcastId, (x) => x.Status === 'done', 'done');
      assert.deepEqual([done.Counts.Sent, done.Counts.Delivered], [1, 1]);

      const other = await webBot();
      const foreign = await other.api.create({ Behaviour: undefined, Message: { Text: 'Theirs', Buttons: [{ Title: 'Go', Behaviour: 'Promo' }] }, Audience: { UserIds: ['nobody'] } });
      const forged = await sendWeb(server.client, key, { UserId: visitor, Command: `broadcast:${foreign.BroadcastId}:0` });
      assert.deepEqual(
        forged.Parts.map((p: any) => p.Text),
        ['You said: '],
        "another bot's button is an unknown payload here",
      );
    });

    test('bad messages are 400 with a Code and a Field, and create nothing', async () => {
      const { api } = await webBot();
      const base = { Name: 'Bad', Audience: {} };
      const cases: Array<[unknown, number, string, string | undefined]> = [
        [{ Behaviour: 'Promo', Message: { Text: 'Both' } }, 400, 'INVALID_REQUEST', 'body.Message'],
        [{}, 400, 'INVALID_REQUEST', 'body.Message'],
        [{ Message: { Text: '' } }, 400, 'INVALID_REQUEST', undefined],
        [{ Message: { Text: '   ' } }, 400, 'INVALID_REQUEST', 'body.Message.Text'],
        [{ Message: { Text: 'x'.repeat(4097) } }, 400, 'INVALID_REQUEST', undefined],
        [{ Message: { Text: 'Hi', Buttons: Array.from({ length: 11 }, (_, i) => ({ Title: `B${i}`, Url: SHOP })) } }, 400, 'INVALID_REQUEST', undefined],
        [{ Message: { Text: 'Hi', Buttons: [{ Title: 'Both', Url: SHOP, Behaviour: 'Promo' }] } }, 400, 'INVALID_REQUEST', 'body.Message.Buttons[0]'],
        [{ Message: { Text: 'Hi', Buttons: [{ Title: 'Neither' }] } }, 400, 'INVALID_REQUEST', 'body.Message.Buttons[0]'],
        [{ Message: { Text: 'Hi', Buttons: [{ Title: ' ', Url: SHOP }] } }, 400, 'INVALID_REQUEST', 'body.Message.Buttons[0].Title'],
        [{ Message: { Text: 'Hi', Buttons: [{ Title: 'Run', Url: 'javascript:alert(1)' }] } }, 400, 'INVALID_REQUEST', 'body.Message.Buttons[0].Url'],
        [
          {
            Message: {
              Text: 'Hi',
              Buttons: [
                { Title: 'Go', Url: SHOP },
                { Title: 'Lost', Behaviour: 'Nope' },
              ],
            },
          },
          404,
          'BEHAVIOUR_NOT_FOUND',
          'body.Message.Buttons[1].Behaviour',
        ],
      ];
      for (const [body, status, code, field] of cases) {
        const res = await api.raw('post', '', { ...base, ...(body as object) });
        assert.deepEqual([res.status, res.body.Code], [status, code], JSON.stringify(body));
        if (field) assert.equal(res.body.Field, field, JSON.stringify(body));
      }
      assert.deepEqual((await api.raw('get', '')).body.Result, [], 'nothing was created');
    });

    test("a button's behaviour is named in any case, as Behaviour is", async () => {
      const { api } = await webBot();
      const res = await api.raw('post', '', { Name: 'x', Message: { Text: 'Hi', Buttons: [{ Title: 'Go', Behaviour: 'promo' }] }, Audience: {} });
      assert.equal(res.status, 201, res.text);
    });
  });
}
