// knowledge.md "Search and answers": the database's own full-text index ranks the obviously
// relevant passage first, stop words never match on their own, hostile query syntax is only data,
// and /ask answers extractively (no provider) or NO_ANSWER.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { addSource, ask, base, longDocument, PETS_MD, search } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`knowledge search (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let travel: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      travel = (await addSource(server, tenant, { Name: 'Travel rules', Text: PETS_MD })).SourceId;
      await addSource(server, tenant, { Name: 'Manual', Text: longDocument(300 * 1024) });
    });
    after(() => server.close());

    test('the relevant passage comes first, with a higher Score than the next', async () => {
      const found = await search(server, tenant, 'Can I bring my dog in the cabin?');
      assert.equal(found[0].SourceId, travel);
      assert.equal(found[0].SourceName, 'Travel rules');
      assert.equal(found[0].Heading, 'Pets');
      assert.ok(found[0].Score > 0);
      const luggage = await search(server, tenant, 'how heavy may my suitcase be');
      assert.equal(luggage[0].Heading, 'Luggage');
      // stemming: "refunded" in the passage, "refund" in the question
      assert.equal((await search(server, tenant, 'refund'))[0].Heading, 'Refunds');
      const many = await search(server, tenant, 'topic12 rules item1205', 20);
      assert.equal(many[0].Heading, 'Section 12 about topic12');
      for (let i = 1; i < many.length; i++) assert.ok(many[i - 1].Score >= many[i].Score, 'best first');
    });

    test('Limit bounds the results (default 5, at most 20)', async () => {
      assert.equal((await search(server, tenant, 'section rules')).length, 5);
      assert.equal((await search(server, tenant, 'section rules', 20)).length, 20);
      const over = await server.client.post(`${base(tenant)}/search`, { Text: 'rules', Limit: 21 }, { token: tenant.accountToken });
      assert.equal(over.status, 400);
      assert.equal(over.body.Code, 'INVALID_REQUEST');
    });

    test('stop words never match on their own: a question sharing no other word finds nothing', async () => {
      assert.deepEqual(await search(server, tenant, 'Can I the of and in a?'), []);
      assert.deepEqual(await search(server, tenant, 'What is the weather like on Jupiter?'), []);
    });

    test('hostile query syntax is data: never a 5xx, never another bot', async () => {
      const hostile = ['"a" OR *', 'NEAR(', 'cabin"', '"', '*', 'bot_id : *', '{heading text} : dog', "cabin') OR 1=1 --", 'dog & | ! <-> :*', '\\', '(((', '^dog', 'NOT dog', 'dog AND', '✈️ 🐕', '﷽'];
      for (const text of hostile) {
        const res = await server.client.post(`${base(tenant)}/search`, { Text: text }, { token: tenant.accountToken });
        assert.equal(res.status, 200, `${JSON.stringify(text)} → ${res.status} ${res.text}`);
        const ask = await server.client.post(`${base(tenant)}/ask`, { Text: text }, { token: tenant.accountToken });
        assert.equal(ask.status, 200, `ask ${JSON.stringify(text)} → ${ask.status} ${ask.text}`);
      }
      // words inside the syntax still count as words
      assert.equal((await search(server, tenant, '"cabin" OR *'))[0].Heading, 'Pets');
      const stranger = await createTenant(server.client);
      assert.deepEqual(await search(server, stranger, 'bot_id : * OR cabin'), []);
    });

    test('ask without a provider: the best passage, trimmed to its most relevant sentences', async () => {
      const answer = await ask(server, tenant, 'How much does a pet in the cabin cost?');
      assert.equal(answer.Status, 'ANSWERED');
      assert.match(answer.Answer, /40 euros/);
      assert.deepEqual(
        answer.Sources.map((s: any) => [s.SourceId, s.SourceName]),
        [[travel, 'Travel rules']],
      );
      assert.equal(typeof answer.Sources[0].ChunkId, 'number');
    });

    test('ask: an unrelated question is NO_ANSWER with a null Answer', async () => {
      // nothing found: no best score; the bot's minimum is said all the same
      assert.deepEqual(await ask(server, tenant, 'What is the weather like on Jupiter?'), { Status: 'NO_ANSWER', Answer: null, Sources: [], Score: null, MinScore: 0.4 });
      assert.deepEqual(await ask(server, tenant, 'can I?'), { Status: 'NO_ANSWER', Answer: null, Sources: [], Score: null, MinScore: 0.4 });
    });
  });
}
