// Issue 23, the preview chat (designer.md "Try it"): POST /bots/{APIKey}/preview/chat runs the
// DRAFT through the one conversation service; each part says its interaction; preview
// conversations are apart from real ones (console list, analytics, missed texts, webhooks), are
// not counted as messages in usage (their calls are), bounded per bot and deleted after 24 hours; an invalid draft is not run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { previewTwinId, PREVIEW_CONVERSATIONS_PER_BOT } from '../../src/designer/preview.js';
import { clockFrom } from '../../src/shared/clock.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const tiny = (welcome: string) => ({
  format: 'colloquy/bot@1',
  name: 'Tiny',
  settings: { channels: { custom: { webhookUrl: 'https://hooks.example.org/colloquy', includeAllChannels: true } } },
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        { name: 'Welcome', start: true, actions: [{ type: 'text', text: welcome }] },
        { name: 'Sorry', fallback: true, actions: [{ type: 'text', text: 'Sorry, I did not get that.' }] },
      ],
    },
  ],
});

for (const kind of databaseKinds()) {
  describe(`designer preview (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let botId: string;
    let now = Date.parse('2026-11-22T10:00:00Z');
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      tenant = await createTenant(server.client, tiny('Hello from the live version'));
      botId = await botIdOf(server, tenant.botKey);
      const put = await server.client.put(`/bots/${tenant.botKey}`, tiny('Hello from the draft'), { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
    });
    after(() => server.close());

    const preview = (body: unknown) => server.client.post(`/bots/${tenant.botKey}/preview/chat`, body, { token: tenant.accountToken });
    const usage = async () => (await server.client.get('/account/usage', { token: tenant.accountToken })).body;

    test('the preview runs the draft and says where each part came from; the live bot is untouched', async () => {
      const before = await usage();
      const started = await preview({ UserId: 'p-1' });
      assert.equal(started.status, 200, started.text);
      assert.deepEqual(
        started.body.Parts.map((p: any) => [p.Text, p.Source]),
        [['Hello from the draft', { Behaviour: 'Main', Interaction: 'Welcome' }]],
      );
      assert.equal(started.body.UserId, 'p-1');
      const missed = await preview({ UserId: 'p-1', Text: 'gibberish words' });
      assert.deepEqual(
        missed.body.Parts.map((p: any) => [p.Text, p.Source]),
        [['Sorry, I did not get that.', { Behaviour: 'Main', Interaction: 'Sorry' }]],
      );
      const ready = await preview({ UserId: 'p-1', Command: 'READY' });
      assert.deepEqual(
        ready.body.Parts.map((p: any) => [p.Type, p.Text, p.Source ?? null]),
        [
          [0, 'Hello from the draft', { Behaviour: 'Main', Interaction: 'Welcome' }],
          [19, 'gibberish words', null],
          [0, 'Sorry, I did not get that.', { Behaviour: 'Main', Interaction: 'Sorry' }],
        ],
      );
      const live = await server.client.post('/custom/chat', { UserId: 'p-1' }, { token: tenant.botToken });
      assert.deepEqual(
        live.body.Parts.map((p: any) => [p.Text, p.Source]),
        [['Hello from the live version', undefined]],
        'a real conversation of the same UserId is another one',
      );
      const after = await usage();
      assert.equal(after.Replies - before.Replies, 1, 'the real reply counts; the two preview replies do not (issue 37)');
      assert.equal(after.Messages - before.Messages, 0, 'the preview user text does not count');
    });

    test('preview conversations are not in the console, analytics, missed texts or webhooks', async () => {
      await addOperator(server.client, tenant.accountId, 'admin@example.org', undefined, 'Admin', 'admin');
      const admin = consoleClient(server.client, await signIn(server.client, 'admin@example.org'));
      await preview({ UserId: 'p-hidden', Text: 'nobody understands me' });
      const list = await admin.get('/conversations');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.Conversations.map((c: any) => c.UserId).sort(), ['p-1'], 'only the real conversation');
      assert.equal((await admin.get(`/conversations/${encodeURIComponent(previewTwinId(botId))}/p-hidden`)).status, 404);
      const missed = await server.client.get(`/bots/${tenant.botKey}/missed`, { token: tenant.accountToken });
      assert.deepEqual(missed.body.Result, [], 'no missed texts');
      const analytics = await server.client.get(`/bots/${tenant.botKey}/analytics?from=2026-11-22&to=2026-11-22`, { token: tenant.accountToken });
      assert.equal(analytics.body.Totals.Conversations, 1, 'the real conversation only');
      assert.equal(analytics.body.Totals.UserMessages, 0);
      const deliveries = await server.client.get(`/bots/${tenant.botKey}/deliveries`, { token: tenant.accountToken });
      assert.deepEqual([...new Set(deliveries.body.Result.map((d: any) => d.UserId))], ['p-1'], 'webhooks for the real conversation only');
    });

    test('at most PREVIEW_CONVERSATIONS_PER_BOT per bot: a new one deletes the least recently active', async () => {
      const twin = previewTwinId(botId);
      const start = await server.running.store.preview.count(twin);
      for (let i = start; i < PREVIEW_CONVERSATIONS_PER_BOT + 1; i++) {
        now += 1;
        assert.equal((await preview({ UserId: `bound-${i}` })).status, 200);
      }
      assert.equal(await server.running.store.preview.count(twin), PREVIEW_CONVERSATIONS_PER_BOT);
      const oldest = await server.running.store.conversations.byUser(twin, 'p-1');
      assert.equal(oldest, null, 'the least recently active went');
      assert.notEqual(await server.running.store.conversations.byUser(twin, `bound-${PREVIEW_CONVERSATIONS_PER_BOT}`), null);
    });

    test('maintenance deletes preview conversations idle for 24 hours, and only those', async () => {
      const twin = previewTwinId(botId);
      now += 23 * 3_600_000;
      await preview({ UserId: 'recent' });
      now += 2 * 3_600_000;
      await server.running.maintenance.runOnce();
      assert.equal(await server.running.store.preview.count(twin), 1);
      assert.notEqual(await server.running.store.conversations.byUser(twin, 'recent'), null);
      assert.notEqual(await server.running.store.conversations.byUser(botId, 'p-1'), null, 'real conversations stay');
    });

    test('an invalid draft answers 400 INVALID_BOT with its problems and runs nothing', async () => {
      const bot = (await server.running.store.bots.byApiKey(tenant.botKey))!;
      const draft = (await server.running.store.bots.draft(bot.id))!;
      // A draft saved before a rule existed: written straight to the store, as no route accepts it.
      assert.equal(await server.running.store.bots.update({ ...bot, version: bot.version + 1 }, bot.version, { ...draft, behaviours: [{ ...draft.behaviours[0], interactions: [] }] }), true);
      const before = await usage();
      const res = await preview({ UserId: 'p-invalid' });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.Code, 'INVALID_BOT');
      assert.ok(Array.isArray(res.body.Problems) && res.body.Problems.length > 0, res.text);
      assert.equal(typeof res.body.Problems[0].Path, 'string');
      assert.deepEqual(await usage(), before);
      assert.equal(await server.running.store.conversations.byUser(previewTwinId(botId), 'p-invalid'), null);
    });
  });
}
