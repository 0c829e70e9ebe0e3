// Issue 41: the console's twins of the channel routes (routes/console-channels.ts), for designers and
// admins signed in with the console's cookie: the messaging channels with each platform's declared
// connect form, connect and disconnect. Credentials never come back; agents and other accounts'
// operators change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, botIdOf, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';

const TOKEN = '123456789:AAH-test-token-abcdefghijklmnopqrstu';
const WRONG_TOKEN = '987654321:AAH-not-a-token-Telegram-knows-xyz';

for (const kind of databaseKinds()) {
  describe(`console channel settings (${kind})`, () => {
    let telegram: TelegramDouble;
    let server: TestServer;
    let tenant: Tenant;
    let botId: string;
    const cookies: Record<'designer' | 'agent' | 'stranger', string> = { designer: '', agent: '', stranger: '' };
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'shop_test_bot');
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: telegram.url });
      tenant = await createTenant(server.client);
      botId = await botIdOf(server, tenant.botKey);
      await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee Designer', 'designer');
      await addOperator(server.client, tenant.accountId, 'ann@example.org', undefined, 'Ann Agent', 'agent');
      cookies.designer = await signIn(server.client, 'dee@example.org');
      cookies.agent = await signIn(server.client, 'ann@example.org');
      const other = await createTenant(server.client);
      await addOperator(server.client, other.accountId, 'olga@example.org', undefined, 'Olga', 'admin');
      cookies.stranger = await signIn(server.client, 'olga@example.org');
    });
    after(async () => {
      assert.deepEqual(telegram.violations, []);
      await server.close();
      await telegram.close();
    });

    const as = (who: keyof typeof cookies) => ({ headers: { cookie: cookies[who] } });
    const path = (channel = '') => `/console/api/bots/${botId}/channels${channel ? `/${channel}` : ''}`;
    const listed = async (channel: string) => (await server.client.get(path(), as('designer'))).body.Result.find((c: { Channel: string }) => c.Channel === channel);

    test('the list: every messaging channel with its form, secrets marked; web and custom are not in it', async () => {
      const res = await server.client.get(path(), as('designer'));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.Result.map((c: { Channel: string; Title: string; Enabled: boolean }) => [c.Channel, c.Title, c.Enabled]),
        [
          ['telegram', 'Telegram', false],
          ['whatsapp', 'WhatsApp', false],
          ['messenger', 'Messenger', false],
          ['slack', 'Slack', false],
          ['sms', 'SMS (Twilio)', false],
          ['chatwoot', 'Chatwoot', false],
          ['instagram', 'Instagram', false],
          ['teams', 'Microsoft Teams', false],
        ],
      );
      const telegramRow = res.body.Result[0];
      assert.deepEqual(telegramRow.Form.Fields, [
        { Name: 'Token', Label: 'Bot token', Help: 'The token BotFather gave, such as 123456789:AAH…', Secret: true, Optional: false, Kind: 'text', MaxLength: 256 },
      ]);
      assert.deepEqual([telegramRow.WebhookUrl, telegramRow.MoreUrls, telegramRow.LastError], [null, [], null]);
      const fieldsOf = (channel: string) =>
        res.body.Result.find((c: { Channel: string }) => c.Channel === channel).Form.Fields.map((f: { Name: string; Secret: boolean; Optional: boolean }) => [f.Name, f.Secret, f.Optional]);
      assert.deepEqual(fieldsOf('teams'), [
        ['AppId', false, false],
        ['AppPassword', true, false],
        ['TenantId', false, true],
      ]);
      assert.deepEqual(fieldsOf('whatsapp'), [
        ['PhoneNumberId', false, false],
        ['AccessToken', true, false],
        ['AppSecret', true, false],
        ['VerifyToken', true, true],
      ]);
      assert.deepEqual(fieldsOf('slack'), [
        ['BotToken', true, false],
        ['SigningSecret', true, false],
      ]);
      assert.deepEqual(fieldsOf('chatwoot'), [
        ['BaseUrl', false, false],
        ['AccountId', false, false],
        ['BotToken', true, false],
        ['InboxIds', false, true],
      ]);
    });

    test('a refused token: 400 CHANNEL_REJECTED with Telegram’s words, nothing connected; bad bodies 400; an unknown channel 404', async () => {
      const refused = await server.client.put(path('telegram'), { Token: WRONG_TOKEN }, as('designer'));
      assert.deepEqual([refused.status, refused.body.Code, refused.body.Description], [400, 'CHANNEL_REJECTED', 'Unauthorized']);
      assert.equal((await listed('telegram')).Enabled, false);
      const shapeless = await server.client.put(path('telegram'), { Token: 'not a token' }, as('designer'));
      assert.deepEqual([shapeless.status, shapeless.body.Code], [400, 'INVALID_REQUEST']);
      const numeric = await server.client.put(path('telegram'), { Token: 123456789 }, as('designer'));
      assert.equal(numeric.status, 400);
      const long = await server.client.put(path('telegram'), { Token: 'x'.repeat(257) }, as('designer'));
      assert.equal(long.status, 400);
      const unknown = await server.client.put(path('fax'), { Token: TOKEN }, as('designer'));
      assert.deepEqual([unknown.status, unknown.body.Code], [404, 'NOT_FOUND']);
      assert.equal(telegram.webhook, null, 'no webhook was set');
    });

    test('an agent, and another account’s admin, change nothing', async () => {
      for (const [who, status, code] of [
        ['agent', 403, 'ROLE_FORBIDDEN'],
        ['stranger', 404, 'BOT_NOT_FOUND'],
      ] as const) {
        const list = await server.client.get(path(), as(who));
        assert.deepEqual([list.status, list.body.Code], [status, code]);
        const put = await server.client.put(path('telegram'), { Token: TOKEN }, as(who));
        assert.deepEqual([put.status, put.body.Code], [status, code]);
      }
      assert.equal((await listed('telegram')).Enabled, false);
      assert.equal(telegram.webhook, null);
    });

    test('a designer connects and disconnects; the answers hold no credential', async () => {
      const connected = await server.client.put(path('telegram'), { Token: TOKEN }, as('designer'));
      assert.equal(connected.status, 200, connected.text);
      assert.deepEqual(Object.keys(connected.body).sort(), ['Account', 'Channel', 'Enabled', 'WebhookUrl']);
      assert.deepEqual([connected.body.Channel, connected.body.Enabled, connected.body.Account], ['telegram', true, '@shop_test_bot']);
      assert.equal(telegram.webhook!.url, connected.body.WebhookUrl);
      const row = await listed('telegram');
      assert.deepEqual([row.Enabled, row.WebhookUrl, row.Account, row.LastError], [true, connected.body.WebhookUrl, '@shop_test_bot', null]);
      const api = await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken });
      assert.equal(api.body.Result.find((c: { Channel: string }) => c.Channel === 'telegram').WebhookUrl, connected.body.WebhookUrl, 'the API sees the same connection');
      const list = await server.client.get(path(), as('designer'));
      for (const secret of [TOKEN, telegram.webhook!.secret_token]) assert.ok(!list.text.includes(secret) && !connected.text.includes(secret), 'no credential comes back');

      const agent = await server.client.delete(path('telegram'), as('agent'));
      assert.deepEqual([agent.status, agent.body.Code], [403, 'ROLE_FORBIDDEN']);
      assert.equal((await listed('telegram')).Enabled, true);
      const gone = await server.client.delete(path('telegram'), as('designer'));
      assert.equal(gone.status, 204);
      assert.deepEqual([(await listed('telegram')).Enabled, (await listed('telegram')).WebhookUrl, telegram.webhook], [false, null, null]);
      const again = await server.client.delete(path('telegram'), as('designer'));
      assert.equal(again.status, 204, 'disconnecting what is not connected is answered alike');
      const unknown = await server.client.delete(path('fax'), as('designer'));
      assert.deepEqual([unknown.status, unknown.body.Code], [404, 'NOT_FOUND']);
    });
  });
}
