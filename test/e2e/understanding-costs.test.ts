// Issue 22: what an `nlp` section may cost. Over a cap, a bot file is refused at save time (400
// INVALID_BOT at the exact JSON path); the largest allowed entity finds its value in a 16 KB text;
// and a publish that trains a large model leaves the server answering other requests meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, text, uid, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { trainingCount, trainModel } from '../../src/understanding/model.js';
import { largeAllowedIntents } from '../support/nlp-kit.js';

const flow = () => botFile([{ name: 'Start', start: true, actions: [text('Hi')] }]);
const withNlp = (nlp: Record<string, unknown>) => ({ ...flow(), nlp });
const examples = (n: number, make: (j: number) => string = (j) => `example number ${j}`) => Array.from({ length: n }, (_, j) => make(j));
const intents = (count: number, perIntent: number, make?: (i: number, j: number) => string) =>
  Array.from({ length: count }, (_, i) => ({ name: `intent_${i}`, examples: examples(perIntent, make ? (j) => make(i, j) : undefined) }));

/** One entity at its caps: 2,000 spellings (20 values × 99 spellings, and the values), about 62,000 characters. */
function largestEntity() {
  const values: Record<string, string[]> = {};
  for (let v = 0; v < 20; v++) values[`value${v}`] = examples(99, (j) => `alpha beta gamma delta v${v} s${j}`);
  return { name: 'product', values };
}

const cases: Array<[string, Record<string, unknown>, string]> = [
  ['intents', { intents: intents(51, 2) }, '$.nlp.intents'],
  ['examples of one intent', { intents: intents(1, 101) }, '$.nlp.intents[0].examples'],
  // the 1,001st example: 19 intents × 51 before intent 19, whose 32nd it is
  ['examples of all intents', { intents: intents(20, 51) }, '$.nlp.intents[19].examples[31]'],
  ['one example', { intents: [{ name: 'a', examples: ['fine', 'x'.repeat(201)] }] }, '$.nlp.intents[0].examples[1]'],
  // 150-character examples: the 219th takes the total past 32,768
  ['example text', { intents: intents(3, 100, (i, j) => `${i} ${j} `.padEnd(150, 'z')) }, '$.nlp.intents[2].examples[18]'],
  ['spellings of one value', { entities: [{ name: 'size', values: { big: examples(101) } }] }, '$.nlp.entities[0].values.big'],
  ['one spelling', { entities: [{ name: 'size', values: { big: ['large', 'y'.repeat(101)] } }] }, '$.nlp.entities[0].values.big[1]'],
  ['one value', { entities: [{ name: 'size', values: { ['v'.repeat(101)]: [] } }] }, `$.nlp.entities[0].values.${'v'.repeat(101)}`],
  // 20 values of 101 spellings each (the value and 100): the 2,001st is value 19's 81st spelling
  ['spellings of one entity', { entities: [{ name: 'size', values: Object.fromEntries(examples(20, (v) => `v${v}`).map((v) => [v, examples(100)])) }] }, '$.nlp.entities[0].values.v19[80]'],
  // values of 100 spellings of 100 characters: 10,002 characters each; the 56th spelling of the 7th crosses 65,536
  [
    'entity text',
    { entities: [{ name: 'size', values: Object.fromEntries(examples(7, (v) => `v${v}`).map((v) => [v, examples(100, (j) => `${j}`.padEnd(100, 'w'))])) }] },
    '$.nlp.entities[0].values.v6[55]',
  ],
];

for (const kind of databaseKinds()) {
  describe(`understanding: what a model may cost (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, flow());
    });
    after(() => server.close());

    for (const [what, nlp, path] of cases) {
      test(`over the cap on ${what}: 400 INVALID_BOT at ${path.length > 60 ? `${path.slice(0, 60)}…` : path}, nothing saved`, async () => {
        const created = await server.client.post('/bots', withNlp(nlp), { token: tenant.accountToken });
        assert.equal(created.status, 400);
        assert.equal(created.body.Code, 'INVALID_BOT');
        assert.deepEqual(
          created.body.Problems.map((p: { Path: string }) => p.Path),
          [path],
          JSON.stringify(created.body.Problems),
        );
        const draft = await server.client.put(`/bots/${tenant.botKey}`, withNlp(nlp), { token: tenant.accountToken });
        assert.equal(draft.status, 400);
        assert.deepEqual(
          draft.body.Problems.map((p: { Path: string }) => p.Path),
          [path],
        );
        assert.equal((await server.client.get('/bots', { token: tenant.accountToken })).body.Result.length, 1);
      });
    }

    test('the largest allowed entity finds its value in a 16 KB text, in a turn and in parse', async () => {
      const bot = {
        ...botFile([
          { name: 'Start', start: true, actions: [text('Hi')] },
          { name: 'Any', fallback: true, actions: [text('Got {{entity_product}}.')] },
        ]),
        nlp: { entities: [largestEntity()] },
      };
      const own = await createTenant(server.client, bot);
      // Every word starts a spelling that never completes, until the last five words.
      const filler = 'alpha beta gamma delta v7 '.repeat(628);
      const message = `${filler}then alpha beta gamma delta v13 s98`;
      assert.ok(message.length > 16_300 && message.length <= 16_384, String(message.length));
      const user = uid('big');
      await chatOk(server, own.botToken, { UserId: user });
      const reply = await chatOk(server, own.botToken, { UserId: user, Text: message });
      assert.equal(reply.Parts[0].Text, 'Got value13.');
      assert.equal((await variablesOf(server, own.botToken, user)).entity_product, 'value13');
      const parsed = await server.client.post(`/bots/${own.botKey}/nlp/parse`, { Text: message }, { token: own.accountToken });
      assert.equal(parsed.status, 200);
      assert.deepEqual(parsed.body.Entities, [{ Name: 'product', Value: 'value13', Text: 'alpha beta gamma delta v13 s98' }]);
    });

    test('while a large allowed model trains for a publish, the server answers other requests first', async () => {
      const own = await createTenant(server.client, flow());
      const large = largeAllowedIntents(kind === 'sqlite' ? 1 : 2);
      const put = await server.client.put(`/bots/${own.botKey}`, withNlp({ intents: large }), { token: own.accountToken });
      assert.equal(put.status, 200);
      const order: string[] = [];
      const before = trainingCount();
      const publishing = server.client.post(`/bots/${own.botKey}/publish`, {}, { token: own.accountToken }).then((res) => {
        order.push('publish');
        return res;
      });
      // once the training has begun (this test runs in the server's process)…
      while (trainingCount() === before) await new Promise((resolve) => setImmediate(resolve));
      // …the same examples give the same training, remembered: this is the publish's own
      const training = trainModel({ intents: large }).then(() => order.push('trained'));
      assert.equal(trainingCount(), before + 1, 'one training, shared');
      const health = await server.client.get('/health');
      order.push('health');
      assert.equal(health.status, 200);
      const published = await publishing;
      await training;
      assert.equal(published.status, 200, published.text);
      assert.deepEqual(order, ['health', 'trained', 'publish']);
      const parsed = await server.client.post(`/bots/${own.botKey}/nlp/parse`, { Text: large[7].examples[3] }, { token: own.accountToken });
      assert.equal(parsed.status, 200);
      assert.equal(parsed.body.Intent, 'intent_7', 'the model trained on the thread is the one stored');
    });
  });
}
