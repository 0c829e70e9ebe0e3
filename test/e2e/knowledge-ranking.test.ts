// knowledge.md "Search" and "The minimum" (issue 36): one ranking rule on both databases (the same
// question ranks the same first three passages on SQLite and PostgreSQL, fixed below), scores in
// 0..1, a question sharing one incidental word with the documents is NO_ANSWER at the default
// minimum, knowledge.minScore is validated, and the knowledge step takes onNoAnswer below it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, goTo, summary, text, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { addSource, ask, search } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { DEV_DOCUMENTS, DEV_FAQ } from '../fixtures/knowledge-dev/index.js';

const stepBot = (minScore?: number, botMinScore?: number) => ({
  ...botFile(
    [
      { name: 'Start', start: true, actions: [text('Hi')] },
      { name: 'Ask', actions: [{ type: 'knowledge', ...(minScore === undefined ? {} : { minScore }), onNoAnswer: [text('Let me find a person ({{kb_status}}).')] }] },
    ],
    { triggers: [{ match: { regex: '^q:' }, actions: [goTo('Main', 'Ask')] }] },
  ),
  ...(botMinScore === undefined ? {} : { knowledge: { minScore: botMinScore } }),
});

/** [question, the first three passages (fewer when fewer share a word)], the same on both databases */
const EXPECTED: ReadonlyArray<readonly [string, string[]]> = [
  ['Is postage free if I spend a lot?', ['How much is shipping?', 'Do you run workshops?', 'Is there a loyalty programme?']],
  ['How much does it cost to resole climbing shoes?', ['Repair prices', 'Repair workshop', 'Children in the climbing wall area']],
  ['Can my dog come into the shop with me?', ['Dogs in the store']],
];
/** A passage as the expectations name it: its heading, or an FAQ entry's question. */
const nameOf = (p: { Heading: string; Text: string }) => p.Heading || p.Text.split('\n')[0];

for (const kind of databaseKinds()) {
  describe(`knowledge ranking (${kind})`, () => {
    let server: TestServer;
    let shop: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      shop = await createTenant(server.client, stepBot());
      await addSource(server, shop, { Name: 'FAQ', Faq: DEV_FAQ });
      for (const document of DEV_DOCUMENTS) await addSource(server, shop, document);
    });
    after(() => server.close());

    test('the same question ranks the same first three passages on both databases, scores 0..1 best first', async () => {
      const ranked: Array<[string, string[]]> = [];
      for (const [question] of EXPECTED) ranked.push([question, (await search(server, shop, question, 3)).map(nameOf)]);
      assert.deepEqual(ranked, EXPECTED);
      for (const [question] of EXPECTED) {
        const found = await search(server, shop, question, 3);
        for (const p of found) assert.ok(p.Score > 0 && p.Score <= 1, `${question}: ${p.Score}`);
        for (let i = 1; i < found.length; i++) assert.ok(found[i - 1].Score >= found[i].Score, 'best first');
      }
    });

    test('one incidental shared word is NO_ANSWER at the default minimum; /ask says the best score and the minimum', async () => {
      const sold = await search(server, shop, 'Do you sell car tyres?');
      assert.equal(nameOf(sold[0]), 'Do you sell gift cards?', 'found by "sell" alone');
      const answer = await ask(server, shop, 'Do you sell car tyres?');
      assert.deepEqual(answer, { Status: 'NO_ANSWER', Answer: null, Sources: [], Score: sold[0].Score, MinScore: 0.4 });
      assert.ok(answer.Score < 0.4);
      const answered = await ask(server, shop, 'How much does it cost to resole climbing shoes?');
      assert.equal(answered.Status, 'ANSWERED');
      assert.match(answered.Answer, /60 dollars per pair/);
      assert.equal(answered.MinScore, 0.4);
      assert.ok(answered.Score >= 0.4);
      assert.deepEqual(await ask(server, shop, 'What is the capital of Australia?'), { Status: 'NO_ANSWER', Answer: null, Sources: [], Score: null, MinScore: 0.4 });
    });

    test('the knowledge step: below its minScore onNoAnswer runs; the bot-level knowledge.minScore applies without one', async () => {
      const question = 'q: How much does it cost to resole climbing shoes?';
      const sayTo = async (t: Tenant) => {
        const user = uid('rank');
        await chatOk(server, t.botToken, { UserId: user });
        return summary((await chatOk(server, t.botToken, { UserId: user, Text: question })).Parts);
      };
      assert.match((await sayTo(shop))[0][1]!, /60 dollars per pair/);
      for (const bot of [stepBot(0.99), stepBot(undefined, 0.99)]) {
        const strict = await createTenant(server.client, bot);
        await addSource(server, strict, { Name: 'FAQ', Faq: DEV_FAQ });
        for (const document of DEV_DOCUMENTS) await addSource(server, strict, document);
        assert.deepEqual(await sayTo(strict), [[0, 'Let me find a person (NO_ANSWER).']]);
      }
      const lenient = await createTenant(server.client, stepBot(0, 0.99));
      await addSource(server, lenient, { Name: 'FAQ', Faq: DEV_FAQ });
      for (const document of DEV_DOCUMENTS) await addSource(server, lenient, document);
      assert.match((await sayTo(lenient))[0][1]!, /Patching a tear costs|60 dollars per pair/, "the step's own minimum wins over the bot's");
      const ownMinimum = await createTenant(server.client, stepBot(undefined, 0.99));
      assert.equal((await ask(server, ownMinimum, 'resole climbing shoes')).MinScore, 0.99, "/ask reads the live bot's knowledge.minScore");
    });

    test('knowledge.minScore out of 0..1 (or not a number) is 400 INVALID_BOT at its path', async () => {
      for (const minScore of [1.5, -0.1, '0.4']) {
        const res = await server.client.post('/bots', stepBot(undefined, minScore as number), { token: shop.accountToken });
        assert.equal(res.status, 400, String(minScore));
        assert.equal(res.body.Code, 'INVALID_BOT');
        assert.ok(
          res.body.Problems.some((p: { Path: string }) => /knowledge.*minScore/.test(p.Path)),
          JSON.stringify(res.body.Problems),
        );
      }
      const step = await server.client.post('/bots', stepBot(2), { token: shop.accountToken });
      assert.equal(step.status, 400);
      assert.equal(step.body.Code, 'INVALID_BOT');
      assert.ok(
        step.body.Problems.some((p: { Path: string }) => /minScore/.test(p.Path)),
        JSON.stringify(step.body.Problems),
      );
      assert.equal((await server.client.post('/bots', stepBot(0.5, 0.6), { token: shop.accountToken })).status, 201);
    });
  });
}
