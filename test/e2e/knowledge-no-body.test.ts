// POST and PUT of a knowledge source with no body at all (no JSON, no upload): the schema has
// nothing to check, and the handler read the missing body (500 INTERNAL, found by `npm run fuzz`);
// now 400 INVALID_REQUEST on both routes of both credentials, and nothing is added.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, botIdOf, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`a knowledge source with no body (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let cookie: string;
    let botId: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      botId = await botIdOf(server, tenant.botKey);
      await addOperator(server.client, tenant.accountId, 'kb@example.org');
      cookie = await signIn(server.client, 'kb@example.org');
    });
    after(() => server.close());

    test('400 INVALID_REQUEST, by token and by console session; nothing added', async () => {
      const calls = [
        () => server.client.call('POST', `/bots/${tenant.botKey}/knowledge`, undefined, { token: tenant.accountToken }),
        () => server.client.call('PUT', `/bots/${tenant.botKey}/knowledge/1`, undefined, { token: tenant.accountToken }),
        () => server.client.call('POST', `/console/api/bots/${botId}/knowledge`, undefined, { headers: { cookie } }),
        () => server.client.call('PUT', `/console/api/bots/${botId}/knowledge/1`, undefined, { headers: { cookie } }),
      ];
      for (const call of calls) {
        const res = await call();
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const list = await server.client.get(`/bots/${tenant.botKey}/knowledge`, { token: tenant.accountToken });
      assert.deepEqual(list.body.Result, []);
    });
  });
}
