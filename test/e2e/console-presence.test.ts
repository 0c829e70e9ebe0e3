// Issue 27, round robin of a team among its members online: "online" is shared by every node on
// one database (operators/presence.ts, migration 023). PostgreSQL: two real server processes on
// one database, the operator's console stream on node A and the transfer to the team on node B,
// which must choose them; once the stream closes, nobody is online on either node. SQLite: the
// same on its single node.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addOperator, consoleClient, eventually, signIn } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { startNode, type NodeProcess } from '../support/node-process.js';
import { openSse } from '../support/sse.js';
import type { Client } from '../support/client.js';

for (const kind of databaseKinds()) {
  const nodes = kind === 'postgres' ? 2 : 1;
  describe(`console presence across nodes (${kind}, ${nodes} node${nodes > 1 ? 's' : ''})`, () => {
    test('a transfer to a team on node B goes to the member whose console is open on node A, and to nobody once it closes', async () => {
      const database = await createTestDatabase(kind);
      // DATABASE_URL always set: a child process inherits the test's own, which would put the SQLite run on PostgreSQL
      const env = { COLLOQUY_DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl ?? '' };
      const started: NodeProcess[] = [];
      try {
        started.push(await startNode(env));
        if (nodes > 1) started.push(await startNode(env));
        const [a, b] = [started[0]!, started.at(-1)!];
        const tenant = await createTenant(a.client);
        await addOperator(a.client, tenant.accountId, 'ann@example.org', undefined, 'Ann Admin', 'admin');
        const bobId = (await addOperator(a.client, tenant.accountId, 'bob@example.org', undefined, 'Bob Agent', 'agent')).OperatorId;
        const signedIn = async (client: Client, email: string) => consoleClient(client, await signIn(client, email));
        const annOnB = await signedIn(b.client, 'ann@example.org');
        const bobOnA = await signedIn(a.client, 'bob@example.org');
        const team = await annOnB.post('/teams', { Name: 'Billing', OperatorIds: [bobId] });
        assert.equal(team.status, 201, team.text);
        const transferOnB = async (userId: string) => {
          const chat = await b.client.post('/custom/chat', { UserId: userId, Text: 'a person please' }, { token: tenant.botToken });
          assert.equal(chat.status, 200, chat.text);
          const botId = (await annOnB.get('/conversations')).body.Conversations.find((c: any) => c.UserId === userId).BotId;
          const res = await annOnB.post(`${annOnB.conversationPath(botId, userId)}/transfer`, { TeamId: team.body.TeamId });
          assert.equal(res.status, 200, res.text);
          return res.body;
        };
        const bobOnline = async () => (await annOnB.get('/teams')).body.Operators.find((o: any) => o.OperatorId === bobId).Online;

        assert.equal(await bobOnline(), false);
        const stream = await openSse(`${a.url}/console/api/events`, { cookie: bobOnA.cookie });
        assert.equal(stream.status, 200);
        await stream.next((e) => e.event === 'ready');
        assert.equal(await bobOnline(), true, 'node B sees Bob online');
        const chosen = await transferOnB('visitor-1');
        assert.deepEqual([chosen.AssignedTo?.OperatorId, chosen.AssignedTo?.Name, chosen.Team.Name], [bobId, 'Bob Agent', 'Billing']);

        stream.close();
        assert.equal(await eventually(async () => (await bobOnline()) === false), true, 'the closed stream takes Bob offline on node B');
        const nobody = await transferOnB('visitor-2');
        assert.deepEqual([nobody.AssignedTo, nobody.Team.Name], [null, 'Billing']);
      } finally {
        for (const node of started) await node.stop();
        await database.drop();
      }
    });
  });
}
