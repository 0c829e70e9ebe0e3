// api.md section 11, bot management: listing, creating (JSON and YAML), reading and replacing the
// draft (If-Match), settings, secret rotation and deletion. Publishing, versions, rollback, backups
// and ids are in bots-versions.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { listedVersion, resetTexts, withoutServerFields } from '../support/bots.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, botToken, createAccount, createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`bot management (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    const asAccount = () => ({ token: tenant.accountToken });
    const draft = async (key: string) => {
      const res = await server.client.get(`/bots/${key}`, asAccount());
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const newBot = async (file: unknown = supportBot()) => {
      const res = await server.client.post('/bots', file, asAccount());
      assert.equal(res.status, 201, res.text);
      return res.body as { APIKey: string; APISecret: string; Version: number };
    };

    test('GET /bots lists every field of every bot of the account, and only of that account', async () => {
      const account = await createAccount(server.client);
      const token = await accountToken(server.client, account.AccountAPIKey);
      const empty = await server.client.get('/bots', { token });
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.body, { Result: [] });
      const file = supportBot();
      file.settings.channels.web.enabled = false;
      file.description = 'Second';
      const first = (await server.client.post('/bots', supportBot(), { token })).body;
      const second = (await server.client.post('/bots', file, { token })).body;
      const res = await server.client.get('/bots', { token });
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['Result']);
      const byKey = new Map(res.body.Result.map((b: any) => [b.APIKey, b]));
      assert.equal(byKey.size, 2);
      const common = { Name: 'Support Desk', Avatar: 'https://example.org/avatars/support.png', Version: 1, Role: 'standard', MasterAPIKey: null };
      const expected = [
        { ...common, APIKey: first.APIKey, APISecret: first.APISecret, Description: supportBot().description, Channels: ['custom', 'web'] },
        { ...common, APIKey: second.APIKey, APISecret: second.APISecret, Description: 'Second', Channels: ['custom'] },
      ];
      for (const want of expected) {
        const { WebKey, ...listed } = byKey.get(want.APIKey) as any;
        assert.deepEqual(listed, want);
        assert.equal(typeof WebKey, 'string', 'WebKey is the only field beyond the documented ones');
      }
      const others = await server.client.get('/bots', asAccount());
      assert.ok(!others.body.Result.some((b: any) => b.APIKey === first.APIKey || b.APIKey === second.APIKey));
    });

    test('POST /bots → 201 exactly {APIKey, APISecret, Version: 1}, and the bot chats at once', async () => {
      const res = await server.client.post('/bots', supportBot(), asAccount());
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body).sort(), ['APIKey', 'APISecret', 'Version']);
      assert.equal(res.body.Version, 1);
      assert.equal(typeof res.body.APIKey, 'string');
      assert.equal(typeof res.body.APISecret, 'string');
      assert.notEqual(res.body.APIKey, tenant.botKey);
      const token = await botToken(server.client, tenant.accountKey, res.body.APIKey, res.body.APISecret);
      assert.deepEqual(await resetTexts(server.client, token, 'u1'), ['Welcome to ACME support!', 'What can I do for you?']);
    });

    test('POST /bots accepts a YAML bot file (Content-Type application/yaml)', async () => {
      const yaml = toYaml(supportBot());
      const res = await server.client.post('/bots', undefined, { ...asAccount(), raw: yaml, contentType: 'application/yaml' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.Version, 1);
      assert.deepEqual(withoutServerFields(await draft(res.body.APIKey)), supportBot());
      const broken = await server.client.post('/bots', undefined, { ...asAccount(), raw: 'name: [unclosed', contentType: 'application/yaml' });
      assert.equal(broken.status, 400);
      assert.equal(broken.body.Code, 'INVALID_BOT');
      assert.equal(broken.body.Problems[0].Path, '$');
    });

    test('GET /bots/{key} is the draft as a bot file, with version; 404 BOT_NOT_FOUND for an unknown key', async () => {
      const file = await draft(tenant.botKey);
      assert.equal(file.version, 1);
      assert.equal(file.format, 'colloquy/bot@1');
      assert.deepEqual(withoutServerFields(file), supportBot());
      for (const behaviour of file.behaviours) assert.equal(typeof behaviour.apiKey, 'string', 'every behaviour gets an apiKey');
      const missing = await server.client.get('/bots/00000000-0000-4000-8000-000000000000', asAccount());
      assert.equal(missing.status, 404);
      assert.equal(missing.body.Code, 'BOT_NOT_FOUND');
    });

    test('PUT /bots/{key} replaces the draft and bumps Version by exactly one', async () => {
      const bot = await newBot();
      const file = supportBot();
      file.description = 'Edited';
      file.behaviours[0].interactions[0].actions[0].text = 'Hello from the draft';
      const res = await server.client.put(`/bots/${bot.APIKey}`, file, asAccount());
      assert.equal(res.status, 200);
      assert.equal(res.body.Version, 2);
      const saved = await draft(bot.APIKey);
      assert.equal(saved.version, 2);
      assert.deepEqual(withoutServerFields(saved), file);
      assert.equal(await listedVersion(server.client, tenant.accountToken, bot.APIKey), 2);
      // the version a client echoes back is ignored, not stored
      const echoed = await server.client.put(`/bots/${bot.APIKey}`, { ...saved, version: 77 }, asAccount());
      assert.equal(echoed.body.Version, 3);
    });

    test('PUT with If-Match: the current version is accepted; a stale one is 412 VERSION_MISMATCH and changes nothing', async () => {
      const bot = await newBot();
      const file = supportBot();
      file.description = 'v2';
      const ok = await server.client.put(`/bots/${bot.APIKey}`, file, { ...asAccount(), headers: { 'if-match': '1' } });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.Version, 2);
      const before = await draft(bot.APIKey);
      const stale = { ...supportBot(), description: 'lost update' };
      for (const ifMatch of ['1', '"1"']) {
        const res = await server.client.put(`/bots/${bot.APIKey}`, stale, { ...asAccount(), headers: { 'if-match': ifMatch } });
        assert.equal(res.status, 412);
        assert.equal(res.body.Code, 'VERSION_MISMATCH');
      }
      assert.deepEqual(await draft(bot.APIKey), before);
      assert.equal(await listedVersion(server.client, tenant.accountToken, bot.APIKey), 2);
      const quoted = await server.client.put(`/bots/${bot.APIKey}`, stale, { ...asAccount(), headers: { 'if-match': '"2"' } });
      assert.equal(quoted.status, 200);
      assert.equal(quoted.body.Version, 3);
    });

    test('PUT with an invalid file → 400 INVALID_BOT, the draft and Version unchanged', async () => {
      const bot = await newBot();
      const before = await draft(bot.APIKey);
      const file = supportBot();
      delete file.name;
      const res = await server.client.put(`/bots/${bot.APIKey}`, file, asAccount());
      assert.equal(res.status, 400);
      assert.equal(res.body.Code, 'INVALID_BOT');
      assert.deepEqual(
        res.body.Problems.map((p: any) => p.Path),
        ['$.name'],
      );
      assert.deepEqual(await draft(bot.APIKey), before);
    });

    test('PATCH settings merges, takes effect at once without a publish, and bumps Version by one', async () => {
      const bot = await newBot();
      const token = await botToken(server.client, tenant.accountKey, bot.APIKey, bot.APISecret);
      const before = await server.client.get('/custom/config', { token });
      assert.equal(before.body.EnableTypeSpeed, true);
      const reply = await server.client.post('/custom/chat', { UserId: 'speed' }, { token });
      assert.ok(reply.body.Parts[0].TypeDelay > 0);

      const res = await server.client.patch(`/bots/${bot.APIKey}/settings`, { enableTypeSpeed: false }, asAccount());
      assert.equal(res.status, 200);
      assert.equal(res.body.Version, 2);
      const config = await server.client.get('/custom/config', { token });
      assert.equal(config.body.EnableTypeSpeed, false);
      assert.equal(config.body.WordsPerMinute, 600, 'the other settings are kept');
      assert.equal(config.body.Version, 2);
      const after = await server.client.post('/custom/chat', { UserId: 'speed' }, { token });
      assert.deepEqual(
        after.body.Parts.map((p: any) => p.TypeDelay),
        [0, 0],
      );

      const hook = await server.client.patch(`/bots/${bot.APIKey}/settings`, { channels: { custom: { webhookUrl: 'https://example.org/hook' } } }, asAccount());
      assert.equal(hook.body.Version, 3);
      const saved = await draft(bot.APIKey);
      assert.deepEqual(saved.settings, {
        enableTypeSpeed: false,
        wordsPerMinute: 600,
        simplifiedAuth: false,
        channels: { custom: { webhookUrl: 'https://example.org/hook', includeAllChannels: false }, web: { enabled: true, allowedOrigins: ['*'] } },
      });
      assert.equal(saved.version, 3);
    });

    test('PATCH settings with an invalid value → 400, nothing changes', async () => {
      const bot = await newBot();
      const before = await draft(bot.APIKey);
      for (const patch of [{ wordsPerMinute: 'fast' }, { unknownSetting: true }, { simplifiedAuth: true, wordsPerMinute: -1 }]) {
        const res = await server.client.patch(`/bots/${bot.APIKey}/settings`, patch, asAccount());
        assert.equal(res.status, 400, JSON.stringify(patch));
        assert.equal(res.body.Code, 'INVALID_BOT');
        assert.ok(res.body.Problems.length >= 1);
        assert.match(res.body.Problems[0].Path, /^\$\.settings\./);
      }
      assert.deepEqual(await draft(bot.APIKey), before);
    });

    test('POST /bots/{key}/secret returns a new secret; GET /bots shows it; only the new one gives tokens', async () => {
      const bot = await newBot();
      const res = await server.client.post(`/bots/${bot.APIKey}/secret`, undefined, asAccount());
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['APIKey', 'APISecret']);
      assert.equal(res.body.APIKey, bot.APIKey);
      assert.notEqual(res.body.APISecret, bot.APISecret);
      const listed = (await server.client.get('/bots', asAccount())).body.Result.find((b: any) => b.APIKey === bot.APIKey);
      assert.equal(listed.APISecret, res.body.APISecret);
      const old = await server.client.post('/authorization/integration', { AccountAPIKey: tenant.accountKey, BotAPIKey: bot.APIKey, BotAPISecret: bot.APISecret });
      assert.equal(old.status, 404);
      assert.equal(old.body.Code, 'BOT_NOT_FOUND');
      await botToken(server.client, tenant.accountKey, bot.APIKey, res.body.APISecret);
    });

    test('DELETE /bots/{key} removes the bot: then 404 BOT_NOT_FOUND everywhere', async () => {
      const bot = await newBot();
      const token = await botToken(server.client, tenant.accountKey, bot.APIKey, bot.APISecret);
      assert.equal((await server.client.post('/custom/chat', { UserId: 'doomed' }, { token })).status, 200);
      const res = await server.client.delete(`/bots/${bot.APIKey}`, asAccount());
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { APIKey: bot.APIKey, Deleted: true });
      for (const call of [
        server.client.get(`/bots/${bot.APIKey}`, asAccount()),
        server.client.put(`/bots/${bot.APIKey}`, supportBot(), asAccount()),
        server.client.post(`/bots/${bot.APIKey}/publish`, undefined, asAccount()),
        server.client.delete(`/bots/${bot.APIKey}`, asAccount()),
        server.client.post('/authorization/integration', { AccountAPIKey: tenant.accountKey, BotAPIKey: bot.APIKey, BotAPISecret: bot.APISecret }),
      ]) {
        const answer = await call;
        assert.equal(answer.status, 404, answer.text);
        assert.equal(answer.body.Code, 'BOT_NOT_FOUND');
      }
      const listed = await server.client.get('/bots', asAccount());
      assert.ok(!listed.body.Result.some((b: any) => b.APIKey === bot.APIKey));
      const stale = await server.client.get('/custom/config', { token });
      assert.equal(stale.status, 401);
      assert.equal(stale.body.Code, 'TOKEN_INVALID');
      // the other bots of the account live on
      assert.deepEqual(await resetTexts(server.client, tenant.botToken, 'survivor'), ['Welcome to ACME support!', 'What can I do for you?']);
    });
  });
}
