// docs/limits.md "Forgetting": after `state=forget` the contact's data is not only gone from
// every table (control-forget.test.ts) but cannot be read back from the live SQLite files either:
// not from freed pages of the database file, not from old frames of its write-ahead log. Searched
// as raw bytes, for a marker put in the user id, a variable, the user's text, an operator message
// and the webhook bodies queued for the integrator.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chatOk } from '../support/chat-kit.js';
import { eventually } from '../support/console-kit.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

/** Every file SQLite keeps for the database (the file itself, -wal, -shm, a journal if any). */
function filesOf(database: TestDatabase): string[] {
  return fs
    .readdirSync(database.dataDir)
    .filter((name) => name.startsWith('colloquy.sqlite'))
    .map((name) => path.join(database.dataDir, name));
}

function filesHolding(database: TestDatabase, marker: string): string[] {
  const needle = Buffer.from(marker, 'utf8');
  return filesOf(database)
    .filter((file) => fs.existsSync(file) && fs.readFileSync(file).includes(needle))
    .map((file) => path.basename(file));
}

describe('forget leaves nothing readable in the SQLite files (sqlite)', () => {
  let database: TestDatabase;
  let server: TestServer;
  let tenant: Tenant;
  before(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServerOn(database);
    const file = supportBot();
    // Replies and user messages are queued as webhook bodies too (to a port where nobody listens).
    file.settings.channels.custom = { webhookUrl: 'http://127.0.0.1:9/hook', includeAllChannels: true };
    tenant = await createTenant(server.client, file);
  });
  after(async () => {
    await server.close();
    await database.drop();
  });

  test('the marker in user id, variable, text, operator message and webhook bodies is in no file after the forget', async () => {
    const marker = `zq${crypto.randomBytes(8).toString('hex')}`;
    const user = `user-${marker}`;
    await chatOk(server, tenant.botToken, { UserId: user, Variables: { email: `${marker}@example.org` } });
    await chatOk(server, tenant.botToken, { UserId: user, Text: `my order is lost ${marker}` });
    await chatOk(server, tenant.botToken, { UserId: user, Text: `operator here ${marker}` }, { DIRECTION: 'OPERATOR' });
    // Some unrelated traffic, so that the conversation's rows share pages with rows that stay.
    for (let i = 0; i < 20; i++) await chatOk(server, tenant.botToken, { UserId: `other-${i}`, Text: `hello ${i}` });
    assert.ok(filesHolding(database, marker).length > 0, 'the test can see the marker before the forget');

    const res = await server.client.post('/custom/state', { userid: user, state: 'forget' }, { token: tenant.botToken });
    assert.equal(res.status, 202, res.text);
    const gone = await eventually(async () => {
      const values = await server.client.get(`/custom/values?userid=${user}`, { token: tenant.botToken });
      return values.status === 404 && filesHolding(database, marker).length === 0;
    });
    assert.ok(gone, `the marker is still in ${filesHolding(database, marker).join(', ')}`);
    // The server keeps working on the same files afterwards.
    const next = await chatOk(server, tenant.botToken, { UserId: 'after-forget', Text: 'hello again' });
    assert.equal(next.UserId, 'after-forget');
    assert.deepEqual(filesHolding(database, marker), []);
  });
});
