// Issue 37 "Install": the panel's answer names the messaging apps and, once one is connected, the
// link customers open: Telegram's t.me/<username> from the connection, nothing for an app that is
// not connected, and nothing again after a disconnect. Through the console route, on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, text } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';

const TOKEN = '314159265:AAH-install-links-token-abcdefghijkl';

for (const kind of databaseKinds()) {
  describe(`the Install panel's messaging links (${kind})`, () => {
    let telegram: TelegramDouble;
    let server: TestServer;
    let tenant: Tenant;
    let install: () => Promise<{ status: number; body: any }>;
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'spoke_chain_bot');
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: telegram.url });
      tenant = await createTenant(
        server.client,
        botFile([
          { name: 'Hello', actions: [text('hello')] },
          { name: 'Sorry', fallback: true, actions: [text('again')] },
        ]),
      );
      await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee Designer', 'designer');
      const c = consoleClient(server.client, await signIn(server.client, 'dee@example.org'));
      const botId = await botIdOf(server, tenant.botKey);
      install = () => c.get(`/bots/${botId}/install`);
    });
    after(async () => {
      await server.close();
      await telegram.close();
    });

    const none = [
      { Channel: 'telegram', Connected: false, Link: null, Account: null },
      { Channel: 'whatsapp', Connected: false, Link: null, Account: null },
      { Channel: 'messenger', Connected: false, Link: null, Account: null },
      { Channel: 'slack', Connected: false, Link: null, Account: null },
      { Channel: 'sms', Connected: false, Link: null, Account: null },
      { Channel: 'chatwoot', Connected: false, Link: null, Account: null },
      { Channel: 'instagram', Connected: false, Link: null, Account: null },
      { Channel: 'teams', Connected: false, Link: null, Account: null },
    ];

    test('no app connected: each listed, none with a link', async () => {
      const res = await install();
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.Channels, none);
    });

    test('Telegram connected: its t.me link; disconnected: gone again', async () => {
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/telegram`, { Token: TOKEN }, { token: tenant.accountToken });
      assert.equal(connected.status, 200, connected.text);
      const res = await install();
      assert.deepEqual(res.body.Channels[0], { Channel: 'telegram', Connected: true, Link: 'https://t.me/spoke_chain_bot', Account: '@spoke_chain_bot' });
      assert.deepEqual(res.body.Channels.slice(1), none.slice(1));
      const gone = await server.client.delete(`/bots/${tenant.botKey}/channels/telegram`, { token: tenant.accountToken });
      assert.equal(gone.status, 204);
      assert.deepEqual((await install()).body.Channels, none);
    });
  });
}
