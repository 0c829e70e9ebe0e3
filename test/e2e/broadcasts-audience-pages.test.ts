// A broadcast's audience is read a page of conversations at a time, by id (broadcasts/audience.ts),
// never the whole bot at once. With a page of 4 every boundary is crossed: 24 conversations of the
// bot (a whole number of pages) interleaved with another bot's, members and excluded ones on both
// sides of a boundary, UserIds in chunks of 4 with repeats and unknown ids. The preview's count
// and sample, and the run's recipients, must be exact: no member missed, none twice. And a walk of
// a big audience lets other requests through between its pages (on SQLite every query is
// synchronous: a preview of 100,000 conversations held the event loop for 2.4 s).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk, uid } from '../support/chat-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { Broadcasts } from '../support/broadcast-kit.js';
import { seedCustomUsers } from '../support/broadcast-seed.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

const PAGE = 4;
const USERS = 24;
/** a big audience: about a second of walking in pages of 1,000 */
const MANY = 40_000;

for (const kind of databaseKinds()) {
  describe(`a broadcast's audience read in pages of ${PAGE} (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, { COLLOQUY_TOKEN_MINUTES: '525600' }, { audiencePage: PAGE });
    });
    after(async () => {
      await server.close();
      await database.drop();
    });

    test('preview and run: exact count, sample in id order, each member reached once, across every page boundary', async () => {
      const mine = await Broadcasts.forNewBot(server);
      const other = await Broadcasts.forNewBot(server);
      const users = Array.from({ length: USERS }, (_, i) => uid(`p${i}`));
      // the other bot's conversations take every second id, so the bot's own ids have gaps
      for (const [i, user] of users.entries()) {
        await chatOk(server, mine.tenant.botToken, { UserId: user, ...(i % 3 !== 0 ? { Tags: ['in'] } : {}) });
        await chatOk(server, other.tenant.botToken, { UserId: user, Tags: ['in'] });
      }
      // excluded on both sides of the boundary between the second and third page
      assert.equal((await server.client.post('/custom/state', { userid: users[7], state: 'ban', days: 3 }, { token: mine.tenant.botToken })).status, 200);
      await chatOk(server, mine.tenant.botToken, { UserId: users[8], Text: 'stop' });
      const members = users.filter((_, i) => i % 3 !== 0 && i !== 7 && i !== 8);
      assert.equal(members.length, 14);

      const everyone = await mine.api.preview({});
      assert.deepEqual([everyone.Count, everyone.Sample], [USERS - 2, users.filter((_, i) => i !== 7 && i !== 8).slice(0, 20)]);
      const tagged = await mine.api.preview({ Tags: { all: ['in'] } });
      assert.deepEqual([tagged.Count, tagged.Sample], [members.length, members]);
      // UserIds are looked up in chunks of a page: repeats count once, unknown ids not at all
      const asked = [...users.slice(0, 10), users[1], users[9], 'nobody', ...users.slice(0, 3)];
      const byIds = await mine.api.preview({ UserIds: asked, Tags: { all: ['in'] } });
      assert.deepEqual([byIds.Count, [...byIds.Sample].sort()], [4, [users[1], users[2], users[4], users[5]].sort()]);
      assert.equal((await mine.api.preview({ Tags: { none: ['in'] } })).Count, USERS / 3, 'the complement: the untagged ones, none excluded among them');

      const b = await mine.api.create({ Audience: { Tags: { all: ['in'] } } });
      const done = await mine.api.until(b.BroadcastId, (x) => x.Status === 'done', 'the run ends');
      assert.deepEqual([done.Counts.Audience, done.Counts.Sent, done.Counts.Skipped, done.Counts.Failed], [members.length, members.length, 0, 0]);
      assert.equal((await server.client.post('/custom/state', { userid: users[7], state: 'unban' }, { token: mine.tenant.botToken })).status, 200);
      for (const user of users) {
        const got = (await chatOk(server, mine.tenant.botToken, { UserId: user, Command: 'PENDING' })).Parts.filter((p: any) => p.Text?.startsWith('Our sale')).length;
        assert.equal(got, members.includes(user) ? 1 : 0, user);
      }
    });

    test(`a preview of ${MANY} conversations does not hold the server: requests are answered between its pages`, async () => {
      const own = await createTestDatabase(kind);
      const big = await startTestServerOn(own, { COLLOQUY_TOKEN_MINUTES: '525600' });
      try {
        const { tenant, api } = await Broadcasts.forNewBot(big);
        await seedCustomUsers(own, tenant.botKey, MANY);
        let pending = true;
        const preview = api.preview({ Tags: { all: ['customer'] } }).finally(() => (pending = false));
        // /health asked again and again while the preview runs: before, none was answered until it ended
        let answered = 0;
        while (pending) {
          const health = await big.client.get('/health');
          assert.equal(health.status, 200);
          if (pending) answered++;
        }
        assert.equal((await preview).Count, MANY / 2);
        assert.ok(answered >= 10, `answered during the preview: ${answered}`);
      } finally {
        await big.close();
        await own.drop();
      }
    });
  });
}
