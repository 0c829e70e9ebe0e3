// Broadcasts (broadcasts.md) on the custom channel, end to end: an audience by tags, variables,
// channel and activity whose preview count is the number reached; banned, opted-out and
// operator-held conversations left alone; opt-out and back; clicks counted; the conversation back
// where it stood; the integrator's webhook (messages, `broadcast` events, Delivered); the API's errors.
import assert from 'node:assert/strict';
import { MAX_ACTIVE_BROADCASTS } from '../../src/broadcasts/service.js';
import { after, before, describe, test } from 'node:test';
import { chatOk, uid } from '../support/chat-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { B_MORE, Broadcasts, movableServer, promoBot } from '../support/broadcast-kit.js';
import { setCustomChannel } from '../support/webhook-kit.js';
import { setWeb, startWeb, webKeyOf } from '../support/web-kit.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';

const DAY = 86_400_000;

for (const kind of databaseKinds()) {
  describe(`broadcasts on the custom channel (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let move: (ms: number) => void;
    before(async () => {
      database = await createTestDatabase(kind);
      ({ server, move } = await movableServer(database));
    });
    after(async () => {
      await server.close();
      await database.drop();
    });

    const start = (tenant: Tenant, userId: string, more: Record<string, unknown> = {}) => chatOk(server, tenant.botToken, { UserId: userId, ...more });
    const pending = async (tenant: Tenant, userId: string) => (await chatOk(server, tenant.botToken, { UserId: userId, Command: 'PENDING' })).Parts.map((p: any) => p.Text);

    test(`concurrent creates cannot pass ${MAX_ACTIVE_BROADCASTS} scheduled broadcasts a bot: the rest are 400 LIMIT_EXCEEDED`, async () => {
      const { api } = await Broadcasts.forNewBot(server);
      const body = { Name: 'Later', Behaviour: 'Promo', Audience: { UserIds: ['nobody'] }, At: `${new Date().getUTCFullYear() + 1}-01-01T09:00:00+00:00` };
      const answers = await Promise.all(Array.from({ length: MAX_ACTIVE_BROADCASTS + 10 }, () => api.raw('post', '', body)));
      const statuses = answers.map((r) => r.status);
      assert.equal(statuses.filter((st) => st === 201).length, MAX_ACTIVE_BROADCASTS);
      const refused = answers.filter((r) => r.status !== 201);
      assert.equal(refused.length, 10);
      for (const r of refused) assert.deepEqual([r.status, r.body.Code, r.body.Limit], [400, 'LIMIT_EXCEEDED', 'ActiveBroadcasts']);
    });

    test('an audience by tags, variables, channel and activity: the preview counts exactly who is reached; banned, opted-out and operator-held conversations are left alone', async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server);
      const gold = { Tags: ['vip'], Variables: { plan: 'gold', first_name: 'Ann' } };
      const [a1, a2, silver, untagged, banned, optedOut, held, quiet] = ['a1', 'a2', 'silver', 'untagged', 'banned', 'opted', 'held', 'quiet'].map((p) => uid(p));
      await start(tenant, quiet, gold);
      // `quiet` wrote 3 days ago: outside ActiveWithinDays 2
      move(3 * DAY);
      for (const u of [a1, a2, banned, optedOut, held]) await start(tenant, u, gold);
      await start(tenant, silver, { Tags: ['vip'], Variables: { plan: 'silver' } });
      await start(tenant, untagged, { Variables: { plan: 'gold' } });
      const state = (userid: string, s: Record<string, unknown>) => server.client.post('/custom/state', { userid, ...s }, { token: tenant.botToken });
      assert.equal((await state(banned, { state: 'ban', days: 3 })).status, 200);
      assert.equal((await state(held, { state: 'takeover', operator: '*' })).status, 200);
      const stop = await start(tenant, optedOut, { Text: 'STOP' });
      assert.equal(stop.Parts.at(-1).Text, 'You will not receive broadcasts from us any more. Send START to receive them again.');

      const audience = { Tags: { all: ['vip'], none: ['blocked'] }, Variables: [{ Name: 'plan', Op: 'eq', Value: 'gold' }], Channels: ['custom'], ActiveWithinDays: 2 };
      const preview = await api.preview(audience);
      assert.deepEqual({ Count: preview.Count, Sample: [...preview.Sample].sort() }, { Count: 2, Sample: [a1, a2].sort() });
      assert.equal((await api.preview({ ...audience, ActiveWithinDays: undefined, InactiveForDays: 2 })).Count, 1, 'only `quiet` has been silent for 2 days');

      const created = await api.create({ Audience: audience, Variables: { promo_code: 'CODE42' } });
      assert.equal(created.Status, 'scheduled');
      const done = await api.until(created.BroadcastId, (b) => b.Status === 'done', 'the broadcast runs now and ends');
      assert.deepEqual(done.Counts, { Audience: 2, Pending: 0, Sent: 2, Delivered: 0, Failed: 0, Skipped: 0, Clicked: 0, Reasons: {} });
      assert.equal(done.Run, 1);
      for (const u of [a1, a2]) assert.deepEqual(await pending(tenant, u), ['Our sale starts today, Ann! CODE42']);
      for (const u of [silver, untagged, optedOut, held, quiet]) assert.deepEqual(await pending(tenant, u), [], `${u} got nothing`);
      assert.equal((await state(banned, { state: 'unban' })).status, 200);
      assert.deepEqual(await pending(tenant, banned), [], 'the banned conversation got nothing');

      // back where it stood: the user's next text is answered by the flow as before
      const position = await server.client.get(`/custom/position?userid=${encodeURIComponent(a1)}`, { token: tenant.botToken });
      assert.deepEqual([position.body.BehaviourName, position.body.InteractionName], ['Main', 'Asked']);
      // a click on the broadcast's button runs its branch and counts; a second click counts once
      assert.equal((await start(tenant, a1, { Command: B_MORE })).Parts.at(-1).Text, 'Here is more.');
      await start(tenant, a1, { Command: B_MORE });
      assert.equal((await api.get(created.BroadcastId)).Counts.Clicked, 1);
      // the conversation's usage counts the broadcast as a notification
      const values = await chatOk(server, tenant.botToken, { UserId: a2, Text: 'Bo' });
      assert.equal(values.Parts.at(-1).Text, 'You said: Bo');
    });

    test('opt-out and back: STOP keeps broadcasts away, START lets them in again; the variable can be set by the integrator too', async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server, promoBot({ broadcasts: { stopKeywords: ['basta'], startReply: 'Welcome back.' } }));
      const user = uid('optout');
      await start(tenant, user);
      assert.equal((await start(tenant, user, { Text: 'stop' })).Parts.at(-1).Text, 'You said: stop', "the bot's own keywords replace the defaults");
      assert.equal((await start(tenant, user, { Text: ' Basta ' })).Parts.at(-1).Text, 'You will not receive broadcasts from us any more. Send START to receive them again.');
      assert.equal((await api.preview({ UserIds: [user] })).Count, 0);
      assert.equal((await start(tenant, user, { Text: 'start' })).Parts.at(-1).Text, 'Welcome back.');
      assert.equal((await api.preview({ UserIds: [user] })).Count, 1);
      await start(tenant, user, { Variables: { broadcast_opt_out: 'true' } });
      assert.equal((await api.preview({ UserIds: [user] })).Count, 0);
      const other = uid('optin');
      await start(tenant, other);
      const b = await api.create({ Audience: { UserIds: [user, other, 'nobody'] } });
      const done = await api.until(b.BroadcastId, (x) => x.Status === 'done', 'done');
      assert.deepEqual([done.Counts.Audience, done.Counts.Sent], [1, 1]);
      assert.deepEqual(await pending(tenant, user), []);
    });

    test("the integrator's webhook gets the broadcast's messages and its `broadcast` events; Delivered counts what it accepted", async () => {
      const receiver = await WebhookReceiver.start();
      try {
        const { tenant, api } = await Broadcasts.forNewBot(server);
        await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
        const users = [uid('hook'), uid('hook')];
        for (const u of users) await start(tenant, u);
        const b = await api.create({ Audience: { UserIds: users } });
        const done = await api.until(b.BroadcastId, (x) => x.Status === 'done' && x.Counts.Delivered === 2, 'delivered to the webhook');
        assert.deepEqual([done.Counts.Sent, done.Counts.Delivered], [2, 2]);
        const ok = await (async () => {
          for (let i = 0; i < 100; i++) {
            if (receiver.calls.filter((c) => c.body?.Event === 'broadcast' && c.body.Status === 'done').length > 0) return true;
            await new Promise((r) => setTimeout(r, 50));
          }
          return false;
        })();
        assert.ok(ok, 'the done event arrived');
        const messages = receiver.calls.filter((c) => c.body?.Event === 'message' && c.body.Direction === 'BOT' && c.body.Reply.Parts[0]?.Text?.startsWith('Our sale'));
        assert.deepEqual(messages.map((c) => c.body.UserId).sort(), [...users].sort());
        const events = receiver.calls.filter((c) => c.body?.Event === 'broadcast').map((c) => c.body);
        const last = events.at(-1);
        assert.deepEqual([last.BroadcastId, last.Name, last.Status, last.Run, last.Counts.Audience], [b.BroadcastId, 'Sale', 'done', 1, 2]);
        assert.ok(
          receiver.calls.every((c) => typeof c.headers['x-colloquy-signature'] === 'string'),
          'every call is signed',
        );
      } finally {
        await receiver.close();
      }
    });

    test("the web widget shows a broadcast on the visitor's next visit, and only web conversations get one by Channels", async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server);
      await setWeb(server.client, tenant, { enabled: true, allowedOrigins: ['*'] });
      const key = await webKeyOf(server.client, tenant);
      const visitor = (await startWeb(server.client, key)).UserId as string;
      const custom = uid('not-web');
      await start(tenant, custom);
      const b = await api.create({ Audience: { Channels: ['web'] } });
      const done = await api.until(b.BroadcastId, (x) => x.Status === 'done', 'done');
      assert.deepEqual([done.Counts.Audience, done.Counts.Sent], [1, 1]);
      const resumed = await startWeb(server.client, key, { UserId: visitor });
      assert.deepEqual(resumed.Parts.map((p: any) => p.Text).slice(-1), ['Our sale starts today, friend! ']);
      assert.deepEqual(await pending(tenant, custom), []);
    });

    test('errors: unknown broadcast 404, unknown behaviour 404, a time without offset 400, cancel of an ended one 409, bounds 400', async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server);
      const missing = await api.raw('get', '/00000000-0000-4000-8000-000000000000');
      assert.deepEqual([missing.status, missing.body.Code], [404, 'BROADCAST_NOT_FOUND']);
      const noBehaviour = await api.raw('post', '', { Name: 'x', Behaviour: 'Nope', Audience: {} });
      assert.deepEqual([noBehaviour.status, noBehaviour.body.Code], [404, 'BEHAVIOUR_NOT_FOUND']);
      const badAt = await api.raw('post', '', { Name: 'x', Behaviour: 'Promo', Audience: {}, At: '2026-12-01T09:00:00' });
      assert.deepEqual([badAt.status, badAt.body.Code, badAt.body.Field], [400, 'INVALID_REQUEST', 'body.At']);
      const badOp = await api.raw('post', '/preview', { Audience: { Variables: [{ Name: 'a', Op: 'like' }] } });
      assert.deepEqual([badOp.status, badOp.body.Code], [400, 'INVALID_REQUEST']);
      const tooMany = await api.raw('post', '/preview', { Audience: { Variables: Array.from({ length: 21 }, () => ({ Name: 'a', Op: 'exists' })) } });
      assert.deepEqual([tooMany.status, tooMany.body.Code], [400, 'INVALID_REQUEST']);
      const system = await api.raw('post', '', { Name: 'x', Behaviour: 'Promo', Audience: {}, Variables: { user_id: 'x' } });
      assert.deepEqual([system.status, system.body.Code], [400, 'INVALID_REQUEST']);
      const b = await api.create({ Audience: { UserIds: ['nobody'] } });
      await api.until(b.BroadcastId, (x) => x.Status === 'done', 'an empty audience is done at once');
      const ended = await api.raw('post', `/${b.BroadcastId}/cancel`);
      assert.deepEqual([ended.status, ended.body.Code, ended.body.Status], [409, 'BROADCAST_ENDED', 'done']);
      const list = await api.raw('get', '');
      assert.deepEqual(
        list.body.Result.map((x: any) => x.BroadcastId),
        [b.BroadcastId],
      );
      const other = await Broadcasts.forNewBot(server);
      const foreign = await server.client.get(`/bots/${other.tenant.botKey}/broadcasts/${b.BroadcastId}`, { token: other.tenant.accountToken });
      assert.deepEqual([foreign.status, foreign.body.Code], [404, 'BROADCAST_NOT_FOUND'], "another bot's broadcast is not found");
      const scope = await server.client.get(`/bots/${tenant.botKey}/broadcasts`, { token: tenant.botToken });
      assert.equal(scope.status, 403);
    });
  });
}
