// Broadcasts over time (broadcasts.md "Status"): a scheduled one fires at its time (the test moves
// the server's clock, it does not wait for it), a repeating one fires again and ends after Until,
// one by users' time zones reaches each at At's clock time in their zone, and cancel mid-way stops
// it: every recipient not reached yet is skipped, and nothing is sent after.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk, uid } from '../support/chat-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { Broadcasts, movableServer, promoBot } from '../support/broadcast-kit.js';
import type { Tenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const settle = () => new Promise((r) => setTimeout(r, 700));

for (const kind of databaseKinds()) {
  describe(`broadcasts over time (${kind})`, () => {
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

    const promos = async (tenant: Tenant, userId: string) =>
      (await chatOk(server, tenant.botToken, { UserId: userId, Command: 'PENDING' })).Parts.filter((p: any) => p.Text?.startsWith('Our sale')).length;
    /** `ms` as an ISO time at +01:00 */
    const atPlusOne = (ms: number) => new Date(ms + HOUR).toISOString().replace('Z', '+01:00');

    test('a scheduled broadcast fires at its time, a daily one again a day later, and ends after Until', async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server);
      const user = uid('daily');
      await chatOk(server, tenant.botToken, { UserId: user });
      const at = now() + 2 * HOUR;
      const b = await api.create({ Audience: { UserIds: [user] }, At: atPlusOne(at), Repeat: { Every: 'day', Until: atPlusOne(at + DAY + HOUR) } });
      assert.deepEqual([b.Status, b.Run, Date.parse(b.At), Date.parse(b.NextRunAt), b.Repeat.Every], ['scheduled', 0, at, at, 'day']);
      await settle();
      assert.deepEqual([(await api.get(b.BroadcastId)).Run, await promos(tenant, user)], [0, 0], 'nothing before its time');
      move(2 * HOUR);
      const first = await api.until(b.BroadcastId, (x) => x.Run === 1 && x.Status === 'scheduled', 'the first run, then scheduled for the next day');
      assert.equal(Date.parse(first.NextRunAt), Date.parse(b.At) + DAY);
      assert.deepEqual([first.Counts.Audience, first.Counts.Sent], [1, 1]);
      assert.equal(await promos(tenant, user), 1);
      move(DAY - HOUR);
      await settle();
      assert.equal((await api.get(b.BroadcastId)).Run, 1, 'not an hour early');
      move(HOUR);
      const second = await api.until(b.BroadcastId, (x) => x.Status === 'done', 'the second run ends it: the third would be after Until');
      assert.deepEqual([second.Run, second.Counts.Sent, second.NextRunAt], [2, 1, null]);
      assert.equal(await promos(tenant, user), 1, 'the second run reached the user once more');
    });

    test("UserTimeZone: each user gets it at At's clock time in their own `timezone`; no zone: At itself", async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server);
      const [tokyo, newYork, nowhere] = [uid('tokyo'), uid('ny'), uid('none')];
      await chatOk(server, tenant.botToken, { UserId: tokyo, Variables: { timezone: 'Asia/Tokyo' } });
      await chatOk(server, tenant.botToken, { UserId: newYork, Variables: { timezone: 'America/New_York' } });
      await chatOk(server, tenant.botToken, { UserId: nowhere, Variables: { timezone: 'Not/AZone' } });
      // 09:00 UTC two days from now: Tokyo's 09:00 is 00:00 UTC that day, New York's 13:00 or 14:00 UTC
      const day = new Date(now() + 2 * DAY).toISOString().slice(0, 10);
      const at = Date.parse(`${day}T09:00:00Z`);
      const b = await api.create({ Audience: { UserIds: [tokyo, newYork, nowhere] }, At: `${day}T09:00:00+00:00`, UserTimeZone: true });
      move(at - 4 * HOUR - now());
      const early = await api.until(b.BroadcastId, (x) => x.Counts.Sent === 1, 'Tokyo is past 09:00');
      assert.deepEqual([early.Status, early.Counts.Pending], ['running', 2]);
      assert.deepEqual([await promos(tenant, tokyo), await promos(tenant, newYork), await promos(tenant, nowhere)], [1, 0, 0]);
      move(5 * HOUR);
      await api.until(b.BroadcastId, (x) => x.Counts.Sent === 2, 'At itself for the unknown zone');
      assert.equal(await promos(tenant, nowhere), 1);
      move(6 * HOUR);
      const done = await api.until(b.BroadcastId, (x) => x.Status === 'done', 'New York is past 09:00');
      assert.deepEqual([done.Counts.Sent, await promos(tenant, newYork)], [3, 1]);
    });

    test('cancel mid-way: every recipient not reached yet is skipped as cancelled, and nothing is sent after', async () => {
      const { tenant, api } = await Broadcasts.forNewBot(server, promoBot({ broadcasts: { messagesPerSecond: 3 } }));
      const users = Array.from({ length: 30 }, () => uid('many'));
      for (const u of users) await chatOk(server, tenant.botToken, { UserId: u });
      const b = await api.create({ Audience: { UserIds: users } });
      await api.until(b.BroadcastId, (x) => x.Counts.Sent >= 3, 'it started');
      const cancelled = await api.cancel(b.BroadcastId);
      assert.equal(cancelled.Status, 'cancelled');
      const c = cancelled.Counts;
      assert.equal(c.Sent + c.Skipped, 30);
      assert.ok(c.Skipped >= 15, `paced at 3 a second, most were not reached: ${JSON.stringify(c)}`);
      assert.deepEqual([c.Pending, c.Reasons], [0, { cancelled: c.Skipped }]);
      await settle();
      await settle();
      const later = await api.get(b.BroadcastId);
      assert.deepEqual(later.Counts, c, 'nothing moved after the cancel');
      let reached = 0;
      for (const u of users) reached += await promos(tenant, u);
      assert.equal(reached, c.Sent, 'exactly the sent ones got it');
      const again = await api.raw('post', `/${b.BroadcastId}/cancel`);
      assert.deepEqual([again.status, again.body.Code], [409, 'BROADCAST_ENDED']);
    });
  });
}
