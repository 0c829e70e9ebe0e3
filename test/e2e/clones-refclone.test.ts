// api.md section 10, POST /bot/refclone: every status code, what the source and the clone become
// (roles in GET /bots, credentials, content, chatting at once), and deleting a master.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GUID } from '../support/bots.js';
import { CloneApi, expectError, linkBot, edited, behaviourOf } from '../support/clones.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createAccount } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A text that carries tagged text, which a reference clone leaves as it is. */
const tagged = () => {
  const file = linkBot('v1');
  file.behaviours[0].interactions[0].actions[0].text = 'Welcome to [[brand]] v1';
  return file;
};

for (const kind of databaseKinds()) {
  describe(`reference clones (${kind})`, () => {
    let server: TestServer;
    let api: CloneApi;
    let plain: CloneApi; // an account without the master-bot package
    before(async () => {
      server = await startTestServer(kind);
      const withPackage = await createAccount(server.client, 'standard', ['master-bot']);
      api = new CloneApi(server.client, withPackage.AccountAPIKey, await accountToken(server.client, withPackage.AccountAPIKey));
      const without = await createAccount(server.client, 'standard');
      plain = new CloneApi(server.client, without.AccountAPIKey, await accountToken(server.client, without.AccountAPIKey));
    });
    after(() => server.close());

    const post = (body: unknown, token = api.accountToken) => server.client.post('/bot/refclone', body, { token });

    test('400 MISSING_FIELD names the missing field; unknown fields are ignored, wrong types are 400 INVALID_REQUEST', async () => {
      const bot = await api.newBot(linkBot('v1'));
      const missing: [unknown, string][] = [
        [{}, 'Source'],
        [{ Source: {} }, 'Source.BotAPIKey'],
        [{ Source: { BotSecret: bot.secret } }, 'Source.BotAPIKey'],
        [{ Source: { BotAPIKey: bot.key } }, 'Source.BotSecret'],
        [{ Source: { BotAPIKey: bot.key, BotSecret: '' } }, 'Source.BotSecret'],
      ];
      for (const [body, field] of missing) {
        const res = await post(body);
        expectError(res, 400, 'MISSING_FIELD', JSON.stringify(body));
        assert.equal(res.body.Field, field);
      }
      expectError(await post({ Source: { BotAPIKey: [bot.key], BotSecret: bot.secret, Extra: 1 } }), 400, 'INVALID_REQUEST');
      expectError(await post({ Source: { BotAPIKey: 5, BotSecret: bot.secret } }), 400, 'INVALID_REQUEST');
      // Without fields, even an account without the package hears about the fields first.
      expectError(await post({}, plain.accountToken), 400, 'MISSING_FIELD');
      assert.equal((await api.listed(bot.key)).Role, 'standard');
    });

    test('401 without a token, 403 TOKEN_SCOPE with a bot token', async () => {
      const bot = await api.newBot(linkBot('v1'));
      const body = { Source: { BotAPIKey: bot.key, BotSecret: bot.secret } };
      expectError(await server.client.post('/bot/refclone', body), 401, 'TOKEN_MISSING');
      expectError(await post(body, bot.token), 403, 'TOKEN_SCOPE');
    });

    test('403 PACKAGE_REQUIRED without the master-bot package, whatever the source', async () => {
      const own = await plain.newBot(linkBot('v1'));
      const res = await plain.refclone(own);
      expectError(res, 403, 'PACKAGE_REQUIRED');
      expectError(await plain.refclone({ key: crypto.randomUUID(), secret: 'nope' }), 403, 'PACKAGE_REQUIRED');
      const listed = await plain.listed(own.key);
      assert.equal(listed.Role, 'standard');
      assert.equal(listed.Version, 1);
      assert.equal((await server.client.get('/bots', { token: plain.accountToken })).body.Result.length, 1, 'no clone was made');
    });

    test("404 BOT_NOT_FOUND for an unknown key, a wrong secret and another account's bot: one answer", async () => {
      const bot = await api.newBot(linkBot('v1'));
      const other = await plain.newBot(linkBot('v1'));
      const answers = [await api.refclone({ key: crypto.randomUUID(), secret: bot.secret }), await api.refclone({ key: bot.key, secret: `${bot.secret}x` }), await api.refclone(other)];
      for (const res of answers) expectError(res, 404, 'BOT_NOT_FOUND');
      assert.deepEqual(
        answers.map((r) => r.body),
        answers.map(() => answers[0].body),
      );
      assert.equal((await api.listed(bot.key)).Role, 'standard');
      assert.equal((await plain.listed(other.key)).Role, 'standard');
    });

    test('409 STATE_CONFLICT when the source is itself a clone', async () => {
      const master = await api.newBot(linkBot('v1'));
      const clone = await api.refcloneOk(master);
      const before = (await server.client.get('/bots', { token: api.accountToken })).body.Result.length;
      expectError(await api.refclone(clone), 409, 'STATE_CONFLICT');
      assert.equal((await server.client.get('/bots', { token: api.accountToken })).body.Result.length, before);
      assert.equal((await api.listed(clone.key)).Role, 'clone');
    });

    test('the source becomes a master (Version + 1), the clone a new bot with its own credentials', async () => {
      const master = await api.newBot(tagged());
      const first = await api.refcloneOk(master);
      assert.match(first.key, GUID);
      assert.notEqual(first.key, master.key);
      assert.notEqual(first.secret, master.secret);
      const second = await api.refcloneOk(master);
      const [m, c1, c2] = await Promise.all([master.key, first.key, second.key].map((k) => api.listed(k)));
      assert.equal(m.Role, 'master');
      assert.equal(m.MasterAPIKey, null);
      assert.equal(m.Version, 2, 'becoming a master is one edit; a second clone changes nothing more');
      for (const [c, keys] of [
        [c1, first],
        [c2, second],
      ] as const) {
        assert.equal(c.Role, 'clone');
        assert.equal(c.MasterAPIKey, master.key);
        assert.equal(c.Version, 1);
        assert.equal(c.APISecret, keys.secret);
        assert.equal(c.Name, m.Name);
        assert.notEqual(c.WebKey, m.WebKey);
      }
      assert.notEqual(c1.WebKey, c2.WebKey);
      const versions = await server.client.get(`/bots/${first.key}/versions`, { token: api.accountToken });
      assert.deepEqual(
        versions.body.Result.map((v: any) => v.Version),
        [1],
      );
      // The master's token still works; the clone's secret is its own.
      assert.equal((await server.client.get('/custom/config', { token: master.token })).status, 200);
      expectError(await server.client.post('/authorization/integration', { AccountAPIKey: api.accountKey, BotAPIKey: first.key, BotAPISecret: master.secret }), 404, 'BOT_NOT_FOUND');
    });

    test('a clone starts with the master draft as draft and live as live, chats at once, tags left as they are', async () => {
      const master = await api.newBot(tagged());
      const masterDraft = edited(await api.draft(master.key), (f) => (behaviourOf(f, 'Extra').interactions[0].actions[0].text = 'Extra draft'));
      await api.putOk(master.key, masterDraft);
      const clone = await api.refcloneOk(master);
      assert.deepEqual(await api.resetTexts(clone.token, 'c1'), ['Welcome to [[brand]] v1', 'Pick one']);
      const cloneDraft = await api.draft(clone.key);
      const { version: _v, ...expected } = await api.draft(master.key);
      const { version, ...actual } = cloneDraft;
      assert.equal(version, 1);
      assert.deepEqual(actual, expected, 'same content, settings, name and ids: a copy of the master draft');
      assert.equal(behaviourOf(cloneDraft, 'Extra').interactions[0].actions[0].text, 'Extra draft');
      // The master still chats as before: nothing of it changed but its role.
      assert.deepEqual(await api.resetTexts(master.token, 'm1'), ['Welcome to [[brand]] v1', 'Pick one']);
    });

    test('request field names are case-insensitive', async () => {
      const master = await api.newBot(linkBot('v1'));
      const res = await post({ source: { botapikey: master.key, BOTSECRET: master.secret } });
      assert.equal(res.status, 200, res.text);
      assert.equal((await api.listed(res.body.APIKey)).Role, 'clone');
    });

    test('deleting a master turns its clones into standard bots that keep their content', async () => {
      const master = await api.newBot(linkBot('v1'));
      const clones = [await api.refcloneOk(master), await api.refcloneOk(master)];
      await api.putOk(master.key, linkBot('v2'));
      await api.publish(master.key);
      const before = await Promise.all(clones.map(async (c) => ({ draft: await api.draft(c.key), listed: await api.listed(c.key) })));
      assert.deepEqual(await api.resetTexts(clones[0].token, 'd1'), ['Welcome to ACME v2', 'Pick one']);
      const res = await server.client.delete(`/bots/${master.key}`, { token: api.accountToken });
      assert.equal(res.status, 200, res.text);
      assert.equal(await api.listed(master.key), undefined);
      for (const [i, clone] of clones.entries()) {
        const listed = await api.listed(clone.key);
        assert.equal(listed.Role, 'standard');
        assert.equal(listed.MasterAPIKey, null);
        assert.equal(listed.Version, before[i].listed.Version + 1, 'becoming standard is one edit');
        const { version: _a, ...now } = await api.draft(clone.key);
        const { version: _b, ...then } = before[i].draft;
        assert.deepEqual(now, then, 'the content stays');
        assert.deepEqual(await api.resetTexts(clone.token, 'd1'), ['Welcome to ACME v2', 'Pick one'], 'chats on, same token');
      }
      // No longer linked: what was linked content can be edited now.
      const draft = edited(await api.draft(clones[0].key), (f) => (behaviourOf(f, 'Orders').interactions[1].actions[0].text = 'free now'));
      assert.equal((await api.put(clones[0].key, draft)).status, 200);
      expectError(await api.detach(clones[1].key, 'Main'), 409, 'STATE_CONFLICT');
    });

    test('deleting a clone leaves the master a master with its other clones', async () => {
      const master = await api.newBot(linkBot('v1'));
      const [gone, kept] = [await api.refcloneOk(master), await api.refcloneOk(master)];
      assert.equal((await server.client.delete(`/bots/${gone.key}`, { token: api.accountToken })).status, 200);
      assert.equal((await api.listed(master.key)).Role, 'master');
      const published = await api.publish(master.key);
      assert.deepEqual(published.Clones, [{ APIKey: kept.key, Version: 2, Published: true }]);
    });
  });
}
