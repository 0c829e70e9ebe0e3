// A refused preview request changes nothing (issue 23 with issue 22's rule): the bot's preview twin
// row is written with its first preview conversation, in that transaction, not before the request
// is even looked at. `npm run fuzz` found a 404 that had left a twin row behind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { previewTwinId } from '../../src/designer/preview.js';
import { botIdOf, openRaw, type RawDatabase } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`designer preview: a refused request leaves no row (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let raw: RawDatabase;
    let tenant: Tenant;
    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database);
      tenant = await createTenant(server.client, supportBot());
      raw = await openRaw(database);
    });
    after(async () => {
      await raw.close();
      await server.close();
      await database.drop();
    });

    const twinRows = async () => (await raw.all('SELECT id FROM bots WHERE id = $1', [previewTwinId(await botIdOf(server, tenant.botKey))])).length;
    const preview = (body: unknown) => server.client.post(`/bots/${tenant.botKey}/preview/chat`, body, { token: tenant.accountToken });

    test('a text to a preview conversation that does not exist is 404 and writes no twin; the first real one does', async () => {
      const refused = await preview({ UserId: 'nobody-yet', Text: 'hello', Channel: 'no such channel' });
      assert.equal(refused.status, 404, refused.text);
      assert.equal(refused.body.Code, 'CONVERSATION_NOT_FOUND');
      assert.equal(await twinRows(), 0);
      const started = await preview({ UserId: 'designer-1' });
      assert.equal(started.status, 200, started.text);
      assert.equal(await twinRows(), 1);
    });
  });
}
