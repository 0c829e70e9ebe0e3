// An operator who leaves (governance.md "Single sign-on"): DELETE /admin/accounts/{AccountId}/
// operators/{OperatorId} ends every session of theirs on every node (the next request is a 401:
// each node reads the session's operator on every request, and the sessions go with the row);
// a role change is obeyed from the next request (403 ROLE_FORBIDDEN) without ending the session.
// On PostgreSQL the sessions are used on two nodes over one database; SQLite is one node.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, consoleClient, readEvents, signIn } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createAccount } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServerOn, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`removing an operator, changing a role (${kind})`, () => {
    let database: TestDatabase;
    let nodes: TestServer[];
    let accountId: string;
    before(async () => {
      database = await createTestDatabase(kind);
      nodes = [await startTestServerOn(database)];
      if (kind === 'postgres') nodes.push(await startTestServerOn(database));
      accountId = (await createAccount(nodes[0].client)).AccountId;
    });
    after(async () => {
      for (const node of nodes ?? []) await node.close();
      await database?.drop();
    });

    test('DELETE: 204; every session of theirs, on every node, is refused at its next request (401 TOKEN_INVALID); others keep theirs', async () => {
      const leaver = await addOperator(nodes[0].client, accountId, 'leaver@shop.example', 'password of the leaver', 'Leaver', 'agent');
      await addOperator(nodes[0].client, accountId, 'stays@shop.example', 'password of who stays', 'Stays', 'agent');
      const sessions = await Promise.all(nodes.map((node) => signIn(node.client, 'leaver@shop.example', 'password of the leaver')));
      const staying = await signIn(nodes[0].client, 'stays@shop.example', 'password of who stays');
      for (const node of nodes) for (const cookie of sessions) assert.equal((await consoleClient(node.client, cookie).get('/conversations')).status, 200);

      const del = await nodes[0].client.delete(`/admin/accounts/${accountId}/operators/${leaver.OperatorId}`, { token: ADMIN_TOKEN });
      assert.equal(del.status, 204, del.text);
      for (const node of nodes) {
        for (const cookie of sessions) {
          const res = await consoleClient(node.client, cookie).get('/me');
          assert.equal(res.status, 401, res.text);
          assert.equal(res.body.Code, 'TOKEN_INVALID');
        }
        assert.equal((await consoleClient(node.client, staying).get('/me')).status, 200);
      }
      const again = await nodes[0].client.delete(`/admin/accounts/${accountId}/operators/${leaver.OperatorId}`, { token: ADMIN_TOKEN });
      assert.equal(again.status, 404);
      assert.equal(again.body.Code, 'OPERATOR_NOT_FOUND');
      const otherAccount = (await createAccount(nodes[0].client)).AccountId;
      const stays = (await nodes[0].running.store.operators.byEmail(accountId, 'stays@shop.example'))!;
      const foreign = await nodes[0].client.delete(`/admin/accounts/${otherAccount}/operators/${stays.id}`, { token: ADMIN_TOKEN });
      assert.equal(foreign.status, 404, 'an operator of another account is not found');
      assert.equal(foreign.body.Code, 'OPERATOR_NOT_FOUND');
      const noAccount = await nodes[0].client.delete(`/admin/accounts/no-such-account/operators/${stays.id}`, { token: ADMIN_TOKEN });
      assert.equal(noAccount.body.Code, 'ACCOUNT_NOT_FOUND');
    });

    test('a role change keeps the session and is obeyed from the next request, on every node', async () => {
      const op = await addOperator(nodes[0].client, accountId, 'mover@shop.example', 'password of the mover', 'Mover', 'agent');
      const cookie = await signIn(nodes[0].client, 'mover@shop.example', 'password of the mover');
      for (const node of nodes) assert.equal((await consoleClient(node.client, cookie).get('/conversations')).status, 200);
      const patch = await nodes[0].client.patch(`/admin/accounts/${accountId}/operators/${op.OperatorId}`, { Role: 'designer' }, { token: ADMIN_TOKEN });
      assert.equal(patch.status, 200, patch.text);
      for (const node of nodes) {
        const c = consoleClient(node.client, cookie);
        const refused = await c.get('/conversations');
        assert.equal(refused.status, 403);
        assert.equal(refused.body.Code, 'ROLE_FORBIDDEN');
        const me = await c.get('/me');
        assert.equal(me.status, 200);
        assert.equal(me.body.Role, 'designer');
      }
    });

    test('the live stream of an operator who may no longer see conversations, or was removed, ends at its next heartbeat', async (t) => {
      // a heartbeat every 300 ms, not every 15 s: the test waits for one
      const heartbeatMs = 300;
      nodes[0].running.services.console.heartbeatMs = heartbeatMs;
      t.after(() => void (nodes[0].running.services.console.heartbeatMs = 15_000));
      for (const change of ['demoted', 'removed'] as const) {
        const email = `streamer-${change}@shop.example`;
        const op = await addOperator(nodes[0].client, accountId, email, 'password of the streamer', 'Streamer', 'agent');
        const cookie = await signIn(nodes[0].client, email, 'password of the streamer');
        const admin = `/admin/accounts/${accountId}/operators/${op.OperatorId}`;
        const stream = await readEvents(`${nodes[0].url}/console/api/events`, {
          headers: { cookie },
          until: () => false,
          opened: () => (change === 'demoted' ? nodes[0].client.patch(admin, { Role: 'designer' }, { token: ADMIN_TOKEN }) : nodes[0].client.delete(admin, { token: ADMIN_TOKEN })),
          // a bound for a server that never ends it, not a speed: the stream returns as soon as it ends
          timeoutMs: 30_000,
        });
        assert.equal(stream.status, 200);
        assert.equal(stream.endedByServer, true, `the ${change} operator's stream was ended by the server`);
      }
    });
  });
}
