// A Telegram API that cannot be reached: connecting is refused with a reason, and neither the
// answer nor LastError ever carries the bot token (the failed request's URL holds it).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const TOKEN = '161803398:AAH-unreachable-token-abcdefghijk';

for (const kind of databaseKinds()) {
  describe(`Telegram unreachable (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      // port 9 (discard) on loopback: nothing listens, the connection is refused
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: 'http://127.0.0.1:9' });
      tenant = await createTenant(server.client, botFile([{ name: 'Hi', actions: [text('hi')] }]));
    });
    after(() => server.close());

    test('connecting answers 400 CHANNEL_REJECTED with a reason that holds no token', async () => {
      const res = await server.client.put(`/bots/${tenant.botKey}/channels/telegram`, { Token: TOKEN }, { token: tenant.accountToken });
      assert.equal(res.status, 400);
      assert.equal(res.body.Code, 'CHANNEL_REJECTED');
      assert.match(res.body.Description, /^Telegram could not be reached: Network request for 'getMe' failed!/);
      assert.equal(res.text.includes(TOKEN.split(':')[1]), false, res.text);
    });
  });
}
