// The console's caps hold under concurrency (issue 22): an account's 200 canned responses are
// counted and written by one request at a time (260 concurrent creates used to leave 271 on
// PostgreSQL), and a conversation keeps the newest 200 private notes, the ones the console shows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CANNED_LIMIT } from '../../src/operators/console-workspace.js';
import { NOTES_LIMIT } from '../../src/operators/console-service.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`console caps under concurrency (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let ann: ReturnType<typeof consoleClient>;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      await addOperator(server.client, tenant.accountId, 'caps@example.org');
      ann = consoleClient(server.client, await signIn(server.client, 'caps@example.org'));
    });
    after(() => server.close());

    test(`260 concurrent canned-response creates leave exactly ${CANNED_LIMIT}; the rest are 400 LIMIT_EXCEEDED`, async () => {
      const answers = await Promise.all(Array.from({ length: 260 }, (_, n) => ann.post('/canned', { Shortcut: `c${n}`, Text: `canned ${n}` })));
      const statuses = answers.map((res) => res.status);
      assert.equal(statuses.filter((s) => s === 201).length, CANNED_LIMIT, JSON.stringify(answers.find((res) => res.status !== 201 && res.status !== 400)?.body));
      const refused = answers.filter((res) => res.status === 400);
      assert.equal(refused.length, 260 - CANNED_LIMIT);
      for (const res of refused) assert.deepEqual([res.body.Code, res.body.Limit, res.body.Max], ['LIMIT_EXCEEDED', 'CannedResponsesPerAccount', CANNED_LIMIT]);
      assert.equal((await ann.get('/canned')).body.CannedResponses.length, CANNED_LIMIT);
    });

    test(`a conversation keeps its newest ${NOTES_LIMIT} notes, however many are added at once`, async () => {
      const user = uid('noted');
      await chatOk(server, tenant.botToken, { UserId: user });
      const path = ann.conversationPath(await botIdOf(server, tenant.botKey), user);
      const added = await Promise.all(Array.from({ length: NOTES_LIMIT + 40 }, (_, n) => ann.post(`${path}/notes`, { Text: `note ${n}` })));
      assert.deepEqual([...new Set(added.map((res) => res.status))], [201]);
      const conversation = (await server.running.store.conversations.byUser(await botIdOf(server, tenant.botKey), user))!;
      const stored = await server.running.store.notes.ofConversation(conversation.id, 10 * NOTES_LIMIT);
      assert.equal(stored.length, NOTES_LIMIT);
      const newest = Math.max(...added.map((res) => res.body.NoteId));
      assert.equal(stored.at(-1)!.id, newest, 'the newest stays');
    });
  });
}
