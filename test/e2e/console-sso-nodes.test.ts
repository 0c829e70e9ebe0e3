// A single sign-on started on one node finishes on another (governance.md "Single sign-on"): the
// sign-ins in progress live in the database, not in a node's memory. Node A sends the browser to
// the provider and stops; node B, on the same database and the same public URL, takes the
// callback and opens the session; the callback replayed on B is refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { consoleClient } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createAccount } from '../support/fixtures.js';
import { startOidcDouble, type OidcDouble } from '../support/oidc-double.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { answerOf, getManual, putSso, ssoSettings, throughProvider } from '../support/sso-kit.js';

for (const kind of databaseKinds()) {
  describe(`single sign-on across nodes (${kind})`, () => {
    let database: TestDatabase;
    let nodeA: TestServer;
    let nodeB: TestServer | undefined;
    let aStopped = false;
    let double: OidcDouble;
    before(async () => {
      database = await createTestDatabase(kind);
      nodeA = await startTestServerOn(database);
      double = await startOidcDouble(`${nodeA.url}/console/sso/callback`);
      const { AccountId } = await createAccount(nodeA.client);
      assert.equal((await putSso(nodeA, AccountId, ssoSettings(double))).status, 200);
    });
    after(async () => {
      if (!aStopped) await nodeA?.close();
      await nodeB?.close();
      await double?.close();
      await database?.drop();
    });

    test('started on node A, which then stops; node B takes the callback, once', async () => {
      const callback = new URL(await throughProvider(nodeA, double));
      await nodeA.close();
      aStopped = true;
      nodeB = await startTestServerOn(database, { COLLOQUY_PUBLIC_URL: nodeA.url });
      const atB = `${nodeB.url}${callback.pathname}${callback.search}`;
      const answer = await answerOf(await getManual(atB));
      assert.equal(answer.location, '/console', JSON.stringify(answer));
      assert.ok(answer.cookie);
      const me = await consoleClient(nodeB.client, answer.cookie).get('/me');
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.Email, 'ann@shop.example');
      const replay = await answerOf(await getManual(atB));
      assert.deepEqual(replay, { status: 302, location: '/console?sso_error=SSO_STATE_INVALID', cookie: null, error: 'SSO_STATE_INVALID' });
    });
  });
}
