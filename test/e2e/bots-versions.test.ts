// api.md section 11, the versioned side of bot management: publish, versions, rollback, backup and
// restore, ids kept across edits, and "every edit increases Version by exactly one".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GUID, idsOf, ISO_WITH_OFFSET, listedVersion, resetTexts, withoutIds, withoutServerFields } from '../support/bots.js';
import { databaseKinds } from '../support/databases.js';
import { botToken, createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const WELCOME = ['Welcome to ACME support!', 'What can I do for you?'];

/** The support bot with another welcome text. */
function withWelcome(text: string): any {
  const file = supportBot();
  file.behaviours[0].interactions[0].actions[0].text = text;
  return file;
}

for (const kind of databaseKinds()) {
  describe(`bot versions (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    const asAccount = () => ({ token: tenant.accountToken });
    /** A new bot of the tenant's account with a bot token. */
    const newBot = async (file: unknown = supportBot()) => {
      const res = await server.client.post('/bots', file, asAccount());
      assert.equal(res.status, 201, res.text);
      const token = await botToken(server.client, tenant.accountKey, res.body.APIKey, res.body.APISecret);
      return { key: res.body.APIKey as string, secret: res.body.APISecret as string, token };
    };
    const versions = async (key: string) => {
      const res = await server.client.get(`/bots/${key}/versions`, asAccount());
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body), ['Result']);
      for (const v of res.body.Result) {
        assert.deepEqual(Object.keys(v).sort(), ['PublishedAt', 'PublishedBy', 'Version']);
        assert.match(v.PublishedAt, ISO_WITH_OFFSET);
      }
      return (res.body.Result as { Version: number }[]).map((v) => v.Version).sort((a, b) => a - b);
    };

    test('a draft change is seen in /custom/chat only after publish', async () => {
      const bot = await newBot();
      const put = await server.client.put(`/bots/${bot.key}`, withWelcome('Hello from version two'), asAccount());
      assert.equal(put.body.Version, 2);
      assert.deepEqual(await resetTexts(server.client, bot.token, 'p1'), WELCOME, 'the draft is not live');
      const published = await server.client.post(`/bots/${bot.key}/publish`, undefined, asAccount());
      assert.equal(published.status, 200);
      assert.deepEqual(published.body, { APIKey: bot.key, Version: 3 });
      assert.deepEqual(await resetTexts(server.client, bot.token, 'p1'), ['Hello from version two', WELCOME[1]], 'an existing conversation');
      assert.deepEqual(await resetTexts(server.client, bot.token, 'p2'), ['Hello from version two', WELCOME[1]], 'a new conversation');
    });

    test('GET versions lists the Version each publish had, creation included', async () => {
      const bot = await newBot();
      assert.deepEqual(await versions(bot.key), [1]);
      await server.client.put(`/bots/${bot.key}`, withWelcome('two'), asAccount()); // 2, not a publish
      await server.client.post(`/bots/${bot.key}/publish`, undefined, asAccount()); // 3
      await server.client.patch(`/bots/${bot.key}/settings`, { wordsPerMinute: 300 }, asAccount()); // 4
      await server.client.post(`/bots/${bot.key}/publish`, undefined, asAccount()); // 5
      assert.deepEqual(await versions(bot.key), [1, 3, 5]);
    });

    test('rollback publishes the content of that version again, as a new Version', async () => {
      const bot = await newBot();
      await server.client.put(`/bots/${bot.key}`, withWelcome('Second edition'), asAccount());
      await server.client.post(`/bots/${bot.key}/publish`, undefined, asAccount()); // 3
      assert.deepEqual(await resetTexts(server.client, bot.token, 'r1'), ['Second edition', WELCOME[1]]);
      const res = await server.client.post(`/bots/${bot.key}/rollback`, { Version: 1 }, asAccount());
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { APIKey: bot.key, Version: 4 });
      assert.deepEqual(await resetTexts(server.client, bot.token, 'r1'), WELCOME);
      assert.deepEqual(await versions(bot.key), [1, 3, 4]);
      const forward = await server.client.post(`/bots/${bot.key}/rollback`, { version: 3 }, asAccount());
      assert.equal(forward.body.Version, 5);
      assert.deepEqual(await resetTexts(server.client, bot.token, 'r1'), ['Second edition', WELCOME[1]]);
    });

    test('rollback to a version that was never published → 404 VERSION_NOT_FOUND, nothing changes', async () => {
      const bot = await newBot();
      await server.client.put(`/bots/${bot.key}`, withWelcome('Unpublished'), asAccount()); // 2
      for (const version of [2, 99]) {
        const res = await server.client.post(`/bots/${bot.key}/rollback`, { Version: version }, asAccount());
        assert.equal(res.status, 404);
        assert.equal(res.body.Code, 'VERSION_NOT_FOUND');
      }
      assert.equal(await listedVersion(server.client, tenant.accountToken, bot.key), 2);
      assert.deepEqual(await versions(bot.key), [1]);
      assert.deepEqual(await resetTexts(server.client, bot.token, 'nf'), WELCOME);
      const bad = await server.client.post(`/bots/${bot.key}/rollback`, { Version: 0 }, asAccount());
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Code, 'INVALID_REQUEST');
    });

    test('every edit increases Version by exactly one, everywhere it is shown', async () => {
      const bot = await newBot();
      const steps: [string, () => Promise<{ status: number; body: any }>][] = [
        ['PUT', () => server.client.put(`/bots/${bot.key}`, withWelcome('edit'), asAccount())],
        ['PATCH settings', () => server.client.patch(`/bots/${bot.key}/settings`, { wordsPerMinute: 900 }, asAccount())],
        ['publish', () => server.client.post(`/bots/${bot.key}/publish`, undefined, asAccount())],
        ['rollback', () => server.client.post(`/bots/${bot.key}/rollback`, { Version: 1 }, asAccount())],
        ['PUT with If-Match', () => server.client.put(`/bots/${bot.key}`, supportBot(), { ...asAccount(), headers: { 'if-match': '5' } })],
        ['publish again', () => server.client.post(`/bots/${bot.key}/publish`, undefined, asAccount())],
      ];
      let expected = 1;
      for (const [what, step] of steps) {
        const res = await step();
        expected += 1;
        assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.Version, expected, what);
        assert.equal(await listedVersion(server.client, tenant.accountToken, bot.key), expected, `${what}: GET /bots`);
        const config = await server.client.get('/custom/config', { token: bot.token });
        assert.equal(config.body.Version, expected, `${what}: /custom/config`);
        const draft = await server.client.get(`/bots/${bot.key}`, asAccount());
        assert.equal(draft.body.version, expected, `${what}: draft version`);
      }
    });

    test('GET /bots/backup with a bot token is the bot file of that bot', async () => {
      const bot = await newBot(withWelcome('Backed up'));
      const res = await server.client.get('/bots/backup', { token: bot.token });
      assert.equal(res.status, 200);
      const draft = await server.client.get(`/bots/${bot.key}`, asAccount());
      assert.deepEqual(res.body, draft.body);
      assert.deepEqual(withoutServerFields(res.body), withWelcome('Backed up'));
    });

    test('POST /bots/restore makes a new bot that chats with the same content', async () => {
      const bot = await newBot(withWelcome('Restored greeting'));
      const backup = (await server.client.get('/bots/backup', { token: bot.token })).body;
      const res = await server.client.post('/bots/restore', backup, asAccount());
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body).sort(), ['APIKey', 'APISecret', 'Version']);
      assert.equal(res.body.Version, 1);
      assert.notEqual(res.body.APIKey, bot.key);
      const restoredToken = await botToken(server.client, tenant.accountKey, res.body.APIKey, res.body.APISecret);
      const original = await server.client.post('/custom/chat', { UserId: 'same' }, { token: bot.token });
      const restored = await server.client.post('/custom/chat', { UserId: 'same' }, { token: restoredToken });
      assert.equal(restored.status, 200);
      const view = (parts: any[]) => parts.map(({ Type, Text, Command, BehaviourName, InteractionName }) => ({ Type, Text, Command, BehaviourName, InteractionName }));
      assert.deepEqual(view(restored.body.Parts), view(original.body.Parts));
      assert.equal(restored.body.Parts[0].Text, 'Restored greeting');
      const restoredDraft = (await server.client.get(`/bots/${res.body.APIKey}`, asAccount())).body;
      assert.deepEqual(withoutServerFields(restoredDraft), withoutServerFields(backup));
      const invalid = await server.client.post('/bots/restore', { ...backup, behaviours: [] }, asAccount());
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.Code, 'INVALID_BOT');
    });

    test('button and input ids are generated when missing, and kept across a PUT that omits them again', async () => {
      const file = withoutIds(supportBot());
      assert.ok(idsOf(file).every((id) => id === undefined));
      const bot = await newBot(file);
      const first = (await server.client.get(`/bots/${bot.key}`, asAccount())).body;
      const ids = idsOf(first) as string[];
      assert.equal(ids.length, idsOf(supportBot()).length);
      for (const id of ids) assert.match(id, GUID);
      assert.equal(new Set(ids.map((id) => id.toLowerCase())).size, ids.length, 'ids are unique');
      // the first button's payload, as a client got it before the edit
      const menu = await server.client.post('/custom/chat', { UserId: 'clicker' }, { token: bot.token });
      const track = menu.body.Parts[1].Parts[0];
      assert.equal(track.Text, 'Track an order');
      assert.equal(track.Command, ids[0]);

      const edited = withoutIds(withWelcome('Ids stay'));
      assert.equal((await server.client.put(`/bots/${bot.key}`, edited, asAccount())).status, 200);
      const second = (await server.client.get(`/bots/${bot.key}`, asAccount())).body;
      assert.deepEqual(idsOf(second), ids);
      await server.client.post(`/bots/${bot.key}/publish`, undefined, asAccount());
      const clicked = await server.client.post('/custom/chat', { UserId: 'clicker', Command: track.Command }, { token: bot.token });
      assert.equal(clicked.status, 200);
      assert.deepEqual(
        clicked.body.Parts.map((p: any) => p.Text),
        ['What is your order number? (six digits)'],
      );
    });

    test('ids given in the file are kept as they are', async () => {
      const bot = await newBot();
      const draft = (await server.client.get(`/bots/${bot.key}`, asAccount())).body;
      assert.deepEqual(idsOf(draft), idsOf(supportBot()));
    });
  });
}
