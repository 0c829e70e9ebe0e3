// governance.md "Retention": `settings.retention` in the bot file, carried out by the maintenance
// that already runs: idle conversations and old ones are forgotten exactly as `state=forget`
// forgets them (no row left), taken-over ones are kept until handed back, waiting ones follow the
// policy; GET /bots/{APIKey}/retention; one audit entry per run that forgot any; and a run stopped
// between marking and deleting (the server closed there, as a crash would) completes on the next
// start, each conversation forgotten and counted once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk } from '../support/chat-kit.js';
import { botIdOf, eventually, tracesOf } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

const DAY = 86_400_000;

for (const kind of databaseKinds()) {
  describe(`retention (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let shift = 0;
    const start = () => startTestServerOn(database, { COLLOQUY_TOKEN_MINUTES: '525600' }, { clock: clockFrom(() => Date.now() + shift) });
    const conversationOf = async (userId: string) => server.running.store.conversations.byUser(await botIdOf(server, tenant.botKey), userId);
    const setRetention = async (retention: unknown) => server.client.patch(`/bots/${tenant.botKey}/settings`, { retention }, { token: tenant.accountToken });
    const view = async () => (await server.client.get(`/bots/${tenant.botKey}/retention`, { token: tenant.accountToken })).body;
    const retentionEntries = async () => (await server.client.get('/account/audit?action=retention', { token: tenant.accountToken })).body.Result;

    before(async () => {
      database = await createTestDatabase(kind);
      server = await start();
      tenant = await createTenant(server.client);
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    test('the bounds of settings.retention', async () => {
      for (const bad of [{ inactiveDays: -1 }, { inactiveDays: 0.00001 }, { keepDays: '3' }, { keepDays: 40_000 }, { other: 1 }]) {
        const res = await setRetention(bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.equal(res.body.Code, 'INVALID_BOT');
      }
      assert.equal((await setRetention({ inactiveDays: 0, keepDays: 0 })).status, 200);
      assert.deepEqual(await view(), { InactiveDays: 0, KeepDays: 0, Due: 0, LastRun: null });
    });

    test('idle conversations are forgotten as forget does; taken-over ones are kept until handed back; waiting ones are not', async () => {
      for (const user of ['idle', 'held']) await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello' });
      // the support bot hands 'human' over to a person: the conversation waits (state 1)
      assert.equal((await chatOk(server, tenant.botToken, { UserId: 'waiting', Text: 'human' })).ControlType, 1);
      const idle = (await conversationOf('idle'))!;
      assert.equal((await server.client.post('/custom/state', { UserId: 'held', State: 'takeover' }, { token: tenant.botToken })).status, 200);
      assert.equal((await setRetention({ inactiveDays: 1.5 })).status, 200);
      shift = DAY; // a day later: nothing is due yet
      await chatOk(server, tenant.botToken, { UserId: 'fresh', Text: 'hello' });
      assert.equal((await view()).Due, 0);
      shift = 2 * DAY; // 'fresh' was active a day ago; the others two days ago
      assert.deepEqual({ ...(await view()), LastRun: null }, { InactiveDays: 1.5, KeepDays: 0, Due: 2, LastRun: null });

      assert.ok(await eventually(async () => (await conversationOf('idle')) === null && (await conversationOf('waiting')) === null, 60_000));
      assert.deepEqual(await tracesOf(database, idle.id, 'idle'), {}, 'nothing left, as after state=forget');
      assert.notEqual(await conversationOf('held'), null, 'an operator holds it');
      assert.notEqual(await conversationOf('fresh'), null);
      const entries = await retentionEntries();
      assert.equal(entries.length, 1);
      assert.deepEqual([entries[0].Actor, entries[0].ActorKind, entries[0].Target, entries[0].Details], ['retention', 'system', `bot:${await botIdOf(server, tenant.botKey)}`, { Count: 2 }]);
      assert.match((await view()).LastRun, /^\d{4}-\d{2}-\d{2}T/);

      // handed back, it follows the policy again (its last activity is the hand-back)
      assert.equal((await server.client.post('/custom/state', { UserId: 'held', State: 'handover' }, { token: tenant.botToken })).status, 200);
      shift = 4 * DAY;
      assert.ok(await eventually(async () => (await conversationOf('held')) === null && (await conversationOf('fresh')) === null, 60_000));
      assert.equal((await retentionEntries()).length, 2);
    });

    test('a run stopped between marking and deleting completes on the next start, each conversation forgotten and counted once', async () => {
      assert.equal((await setRetention({ inactiveDays: 0, keepDays: 0.5 })).status, 200);
      for (const user of ['c1', 'c2', 'c3']) await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello' });
      const ids = await Promise.all(['c1', 'c2', 'c3'].map(async (u) => (await conversationOf(u))!.id));
      const before = (await retentionEntries()).length;
      await server.running.maintenance.stop();
      shift += DAY;
      const bot = { id: await botIdOf(server, tenant.botKey), accountId: tenant.accountId };
      // the run marks its batch and writes its entry, then the node stops before deleting
      const marked = await server.running.services.retention.runOnce(bot, { idleBefore: 0, createdBefore: Date.now() + shift - DAY / 2 }, false);
      assert.equal(marked, 3);
      await server.close();
      const raw = await tracesOf(database, ids[0], 'c1');
      assert.ok(raw.conversations, 'marked, not yet deleted, while no server runs');

      server = await start();
      for (const [i, id] of ids.entries()) assert.deepEqual(await tracesOf(database, id, `c${i + 1}`), {}, `c${i + 1} forgotten at start`);
      // the next passes find nothing due: no second entry, no second count
      await server.running.maintenance.runOnce();
      const entries = await retentionEntries();
      assert.equal(entries.length, before + 1);
      assert.deepEqual(entries[0].Details, { Count: 3 });
      assert.equal((await view()).Due, 0);
    });
  });
}
