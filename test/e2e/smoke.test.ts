import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`first conversation (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    test('RESET runs the welcome interaction of the support bot', async () => {
      const res = await server.client.post('/custom/chat', { UserId: 'smoke-1' }, { token: tenant.botToken });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.Parts.map((p: any) => [p.Type, p.Text]),
        [
          [0, 'Welcome to ACME support!'],
          [13, 'What can I do for you?'],
        ],
      );
      assert.equal(res.body.UserId, 'smoke-1');
      assert.equal(res.body.EnableUserChat, false);
      assert.equal(res.body.ControlType, 0);
    });

    test('the health route answers ok', async () => {
      const res = await server.client.get('/health');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { Status: 'ok' });
    });
  });
}
