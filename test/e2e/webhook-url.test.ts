// Hardening finding 8: a webhook URL that is not http(s) is refused when the bot is saved (a bot
// file on POST/PUT, or PATCH /bots/{key}/settings), with 400 INVALID_BOT naming the setting.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PATH = '$.settings.channels.custom.webhookUrl';
const REFUSED = ['ftp://example.org/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://example.org:70/_x', 'example.org/hook', '//example.org/hook', 'https://'];

for (const kind of databaseKinds()) {
  describe(`webhook URL scheme on save (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    const asAccount = () => ({ token: tenant.accountToken });
    const settingsOf = async () => (await server.client.get(`/bots/${tenant.botKey}`, asAccount())).body.settings;
    const assertRefused = (res: { status: number; body: any }, url: string) => {
      assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.Code, 'INVALID_BOT');
      assert.deepEqual(
        res.body.Problems.map((p: any) => p.Path),
        [PATH],
        url,
      );
      assert.match(res.body.Problems[0].Message, /http:\/\/ or https:\/\//);
    };

    test('PATCH settings with a non-http(s) webhook URL → 400 INVALID_BOT at the setting; nothing changes', async () => {
      const before = await settingsOf();
      for (const url of REFUSED) {
        const res = await server.client.patch(`/bots/${tenant.botKey}/settings`, { channels: { custom: { webhookUrl: url } } }, asAccount());
        assertRefused(res, url);
      }
      assert.deepEqual(await settingsOf(), before);
    });

    test('a bot file with a non-http(s) webhook URL is refused on POST /bots and PUT /bots/{key}', async () => {
      for (const url of ['ftp://example.org/hook', 'file:///etc/passwd', 'javascript:alert(1)']) {
        const file = supportBot();
        file.settings.channels.custom = { webhookUrl: url };
        assertRefused(await server.client.post('/bots', file, asAccount()), url);
        assertRefused(await server.client.put(`/bots/${tenant.botKey}`, file, asAccount()), url);
      }
    });

    test('http, https (any case), null, an empty text and a URL with clone tags are accepted', async () => {
      for (const url of ['http://example.org/hook', 'HTTPS://example.org:8443/hook?x=1', 'https://[[domain]]/hook', null, '']) {
        const res = await server.client.patch(`/bots/${tenant.botKey}/settings`, { channels: { custom: { webhookUrl: url } } }, asAccount());
        assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
        assert.equal((await settingsOf()).channels.custom.webhookUrl, url);
      }
    });
  });
}
