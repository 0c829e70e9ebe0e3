// A repeating broadcast fires at most as often as its Repeat says (broadcasts.md "Status"), even
// when its node was down: the test moves the server's clock past several runs at once, as a
// restart after days of downtime sees it. Missed runs are not made up in a burst: one late run
// stands for them, and two runs never start less than half a period apart; none starts after
// Until. And every At or Until that is not a real time, or out of bounds, is a 400 with a Code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk, uid } from '../support/chat-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { Broadcasts, movableServer, promoBot } from '../support/broadcast-kit.js';
import { openRaw } from '../support/console-kit.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const settle = () => new Promise((r) => setTimeout(r, 700));
/** `ms` as an ISO time at +01:00 */
const atPlusOne = (ms: number) => new Date(ms + HOUR).toISOString().replace('Z', '+01:00');

for (const kind of databaseKinds()) {
  describe(`repeating broadcasts do not burst (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let move: (ms: number) => void;
    let now: () => number;
    before(async () => {
      database = await createTestDatabase(kind);
      ({ server, move, now } = await movableServer(database));
    });
    after(async () => {
      await server.close();
      await database.drop();
    });

    /** The promotions the user has received so far, over every PENDING poll of the test. */
    const received = new Map<string, number>();
    const promos = async (tenant: Tenant, userId: string) => {
      const parts = (await chatOk(server, tenant.botToken, { UserId: userId, Command: 'PENDING' })).Parts;
      received.set(userId, (received.get(userId) ?? 0) + parts.filter((p: any) => p.Text?.startsWith('Our sale')).length);
      return received.get(userId);
    };
    /** A daily (or other) broadcast to one new user whose first run has happened. */
    const afterFirstRun = async (Repeat: Record<string, unknown>, at = now() + HOUR) => {
      const { tenant, api } = await Broadcasts.forNewBot(server);
      const user = uid('repeat');
      await chatOk(server, tenant.botToken, { UserId: user });
      const b = await api.create({ Audience: { UserIds: [user] }, At: atPlusOne(at), Repeat });
      move(at - now());
      const first = await api.until(b.BroadcastId, (x) => x.Run === 1 && x.Status === 'scheduled', 'the first run');
      assert.equal(await promos(tenant, user), 1);
      return { tenant, api, user, b, first, at };
    };
    /** Waits until the broadcast is scheduled again for a time still to come (no burst in progress). */
    const settled = (api: Broadcasts, id: string) => api.until(id, (x) => x.Status !== 'running' && (x.Status !== 'scheduled' || Date.parse(x.NextRunAt) > now()), 'scheduled for a time to come');

    test('five days of downtime: a daily broadcast runs once for the missed days, not five times, and keeps its clock time', async () => {
      const { tenant, api, user, b, first, at } = await afterFirstRun({ Every: 'day' });
      assert.equal(Date.parse(first.NextRunAt), at + DAY);
      move(5 * DAY + 2 * HOUR);
      const later = await settled(api, b.BroadcastId);
      assert.deepEqual([later.Status, later.Run, Date.parse(later.NextRunAt)], ['scheduled', 2, at + 6 * DAY]);
      assert.equal(await promos(tenant, user), 2, 'one late run for the five missed days');
    });

    test('a run 23 hours late stands for the next one too: two runs never start less than half a period apart', async () => {
      const { tenant, api, user, b, at } = await afterFirstRun({ Every: 'day' });
      move(DAY + 23 * HOUR);
      const late = await settled(api, b.BroadcastId);
      assert.deepEqual([late.Run, Date.parse(late.NextRunAt)], [2, at + 3 * DAY], 'the run due in an hour is skipped');
      move(2 * HOUR);
      await settle();
      assert.deepEqual([(await api.get(b.BroadcastId)).Run, await promos(tenant, user)], [2, 2], 'nothing at the skipped time');
      move(DAY);
      assert.equal((await api.until(b.BroadcastId, (x) => x.Run === 3 && x.Status === 'scheduled', 'the next run on time')).Run, 3);
      assert.equal(await promos(tenant, user), 3);
    });

    test('monthly, down for two months: one late run, then the next month-end on its own calendar', async () => {
      const year = new Date(now()).getUTCFullYear() + 1;
      const at = Date.parse(`${year}-01-31T09:00:00+01:00`);
      const { tenant, api, user, b, first } = await afterFirstRun({ Every: 'month' }, at);
      assert.equal(first.NextRunAt, new Date(Date.parse(`${year}-02-${year % 4 === 0 ? 29 : 28}T08:00:00Z`)).toISOString().replace('Z', '+00:00'));
      move(Date.parse(`${year}-04-05T12:00:00Z`) - now());
      const later = await settled(api, b.BroadcastId);
      assert.deepEqual([later.Run, later.NextRunAt], [2, `${year}-04-30T08:00:00.000+00:00`]);
      assert.equal(await promos(tenant, user), 2);
    });

    test('no run starts after Until, however late the node comes back', async () => {
      const { tenant, api, user, b, at } = await afterFirstRun({ Every: 'day', Until: atPlusOne(now() + HOUR + 2 * DAY + HOUR) });
      move(3 * DAY);
      const done = await settled(api, b.BroadcastId);
      assert.deepEqual([done.Status, done.Run, done.NextRunAt], ['done', 1, null]);
      assert.equal(await promos(tenant, user), 1);
      assert.ok(now() > at + 2 * DAY + HOUR);
    });

    test('a run started by the version before this one (next run chosen only at its end) is not followed by another at once', async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server, promoBot({ broadcasts: { messagesPerSecond: 1 } }));
      const users = Array.from({ length: 5 }, () => uid('upgrade'));
      for (const u of users) await chatOk(server, tenant.botToken, { UserId: u });
      const at = now() + HOUR;
      const b = await api.create({ Audience: { UserIds: users }, At: atPlusOne(at), Repeat: { Every: 'day' } });
      move(HOUR);
      await api.until(b.BroadcastId, (x) => x.Status === 'running', 'running, paced at one a second');
      // what that version left in a running broadcast: the time of the run itself
      const raw = await openRaw(database);
      await raw.all('UPDATE broadcasts SET next_run_at = $1 WHERE id = $2 RETURNING id', [at, b.BroadcastId]).finally(() => raw.close());
      const after = await settled(api, b.BroadcastId);
      assert.deepEqual([after.Status, after.Run, Date.parse(after.NextRunAt), after.Counts.Sent], ['scheduled', 1, at + DAY, 5]);
      assert.equal(await promos(tenant, users[0]), 1);
    });

    test('At and Until that are not real times, or out of bounds: 400 INVALID_REQUEST naming the field', async () => {
      const { api } = await Broadcasts.forNewBot(server);
      const year = new Date(now()).getUTCFullYear();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ At: `${year + 1}-12-01T09:00:00` }, 'body.At'],
        [{ At: `${year + 1}-02-30T09:00:00+01:00` }, 'body.At'],
        [{ At: `${year + 1}-04-31T09:00:00Z` }, 'body.At'],
        [{ At: `${year + 1}-12-01T24:00:00Z` }, 'body.At'],
        [{ At: `${year + 1}-12-01T09:00:00+23:59` }, 'body.At'],
        [{ At: `${year + 1}-12-01T09:00:00-13:00` }, 'body.At'],
        [{ At: `${year + 11}-12-01T09:00:00Z` }, 'body.At'],
        [{ At: 20261201 }, 'body.At'],
        [{ Repeat: { Every: 'hour' } }, 'body.Repeat.Every'],
        [{ Repeat: { Every: 'day', Until: 'never' } }, 'body.Repeat.Until'],
        [{ At: atPlusOne(now() + DAY), Repeat: { Every: 'day', Until: atPlusOne(now() + HOUR) } }, 'body.Repeat.Until'],
        [{ At: atPlusOne(now() - 3 * DAY), Repeat: { Every: 'day', Until: atPlusOne(now() - DAY) } }, 'body.Repeat.Until'],
        [{ Repeat: { Every: 'day', Until: `${year + 11}-01-01T00:00:00Z` } }, 'body.Repeat.Until'],
      ];
      for (const [body, field] of cases) {
        const res = await api.raw('post', '', { Name: 'Bad', Behaviour: 'Promo', Audience: {}, ...body });
        assert.deepEqual([res.status, res.body.Code, res.body.Field], [400, 'INVALID_REQUEST', field], JSON.stringify(body));
      }
      // biome-ignore lint/complexity/useLiteralKeys: brackets reach the helper's private tenant on purpose (TypeScript allows it only this way)
      assert.equal((await server.client.get(`/bots/${api['tenant'].botKey}/broadcasts`, { token: api['tenant'].accountToken })).body.Result.length, 0, 'nothing was created');
    });
  });
}
