// knowledge.md "In the bot file", last rule: analytics count per day the questions answered from
// knowledge and those left unanswered. Counted: each `knowledge` action and each beforeFallback
// question of a real conversation, on the UTC day its turn committed (ANSWERED is answered;
// NO_ANSWER, ERROR and TIMEOUT are not). Not counted: the preview chat (apart from real
// conversations, designer.md), and POST …/knowledge/ask (the API's and the Knowledge page's try-out).
// Shown by GET /bots/{APIKey}/analytics and its console twin as KnowledgeAnswered / KnowledgeUnanswered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { botFile, chatOk, goTo, text, uid } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { addSource, ask, PETS_MD } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const DAY_1 = '2026-03-02';
const DAY_2 = '2026-03-03';

const knowledgeBot = () => ({
  ...botFile(
    [
      { name: 'Start', start: true, actions: [text('Hi')] },
      { name: 'Ask', actions: [{ type: 'knowledge', onNoAnswer: [text('No answer.')] }] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    { triggers: [{ match: { regex: '^q:' }, actions: [goTo('Main', 'Ask')] }] },
  ),
  knowledge: { beforeFallback: true },
});

for (const kind of databaseKinds()) {
  describe(`knowledge questions in analytics (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let now = Date.parse(`${DAY_1}T09:00:00Z`);
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      tenant = await createTenant(server.client, knowledgeBot());
      await addSource(server, tenant, { Name: 'Travel rules', Text: PETS_MD });
    });
    after(() => server.close());

    const say = async (words: string[]) => {
      const user = uid('kbq');
      await chatOk(server, tenant.botToken, { UserId: user });
      const replies = [];
      for (const w of words) replies.push(await chatOk(server, tenant.botToken, { UserId: user, Text: w }));
      return replies;
    };
    const days = async (query = `from=${DAY_1}&to=${DAY_2}`) => {
      const res = await server.client.get(`/bots/${tenant.botKey}/analytics?${query}`, { token: tenant.accountToken });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const counts = (body: any) => body.Days.map((d: any) => [d.Date, d.KnowledgeAnswered, d.KnowledgeUnanswered]);

    test('the action and beforeFallback count per day, answered and not; the fallback text that follows an unanswered one is still a missed text', async () => {
      assert.deepEqual(counts(await days()), [
        [DAY_1, 0, 0],
        [DAY_2, 0, 0],
      ]);
      const day1 = await say(['q: how much does a pet in the cabin cost?', 'q: what is the weather on Jupiter', 'Can I bring my dog in the cabin?']);
      assert.match(day1[0].Parts[0].Text, /40 euros/);
      assert.equal(day1[1].Parts[0].Text, 'No answer.');
      assert.match(day1[2].Parts[0].Text, /Small dogs and cats/);
      now = Date.parse(`${DAY_2}T23:59:00Z`);
      const day2 = await say(['Tell me about the weather on Jupiter']);
      assert.equal(day2[0].Parts[0].Text, 'Sorry?');
      const body = await days();
      assert.deepEqual(counts(body), [
        [DAY_1, 2, 1],
        [DAY_2, 0, 1],
      ]);
      assert.deepEqual([body.Totals.KnowledgeAnswered, body.Totals.KnowledgeUnanswered, body.Totals.MissedTexts], [2, 2, 1]);
    });

    test('the try-out route (ask) and the preview chat are not counted; a conversation start asks nothing', async () => {
      const before = counts(await days());
      assert.equal((await ask(server, tenant, 'How much does a pet in the cabin cost?')).Status, 'ANSWERED');
      const preview = await server.client.post(`/bots/${tenant.botKey}/preview/chat`, { UserId: 'designer-try', Text: 'q: how heavy may a suitcase be?' }, { token: tenant.accountToken });
      assert.equal(preview.status, 200, preview.text);
      await say(['hello there', 'q']); // texts no trigger takes: beforeFallback asks both, and finds nothing
      const after = counts(await days());
      assert.deepEqual(after, [before[0], [DAY_2, before[1][1], before[1][2] + 2]], 'only the two real beforeFallback questions, both unanswered');
    });

    test('the console twin shows the same counts to a designer', async () => {
      await addOperator(server.client, tenant.accountId, `dana-${kind}@example.org`, undefined, 'Dana', 'designer');
      const cookie = await signIn(server.client, `dana-${kind}@example.org`);
      const botId = await botIdOf(server, tenant.botKey);
      const res = await consoleClient(server.client, cookie).get(`/bots/${botId}/analytics?from=${DAY_1}&to=${DAY_2}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(counts(res.body), counts(await days()));
    });

    test('deleting the bot deletes its counts', async () => {
      const botId = await botIdOf(server, tenant.botKey);
      const stored = () => server.running.store.analytics.knowledgeQuestions(botId, { from: 0, to: Date.parse(`${DAY_2}T00:00:00Z`) + 86_400_000 });
      assert.equal((await stored()).length, 2, 'a row per day with questions');
      const res = await server.client.delete(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(await stored(), []);
    });
  });
}
