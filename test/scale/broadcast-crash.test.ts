// Exactly once under kill -9 (broadcasts.md "Exactly once"): two server processes on one
// PostgreSQL database, a WhatsApp broadcast to 1,000 users whose messages go to the Cloud API
// double (which records every call), and the node driving it killed with SIGKILL mid-run. The
// other node takes the lease and the claims over and finishes. Then, recipient by recipient: no
// user got it twice; every `delivered` one got exactly one message; the only recipients not
// delivered are deliveries the dead node had on the wire (`Failed`, reason `interrupted`, the one
// gap docs/broadcasts.md names); and the counts are exact. PostgreSQL only: SQLite has one node.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { B_MORE, promoBot } from '../support/broadcast-kit.js';
import { seedWhatsAppUsers } from '../support/broadcast-seed.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { startNode, type NodeProcess } from '../support/node-process.js';
import { WhatsAppDouble } from '../support/whatsapp-double.js';

const USERS = 1000;
/** short leases and claims, so the takeover after the kill takes seconds, not minutes */
const CLAIM_SECONDS = 3;
/** paced so the run lasts about ten seconds and the kill lands in its middle */
const PER_SECOND = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe('a broadcast survives SIGKILL of the node sending it (two nodes, PostgreSQL)', () => {
    let database: TestDatabase;
    let wa: WhatsAppDouble;
    const nodes: NodeProcess[] = [];
    before(async () => {
      wa = await WhatsAppDouble.start();
      database = await createTestDatabase(kind);
    });
    after(async () => {
      for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) await node.stop();
      await wa?.close();
      await database?.drop();
    });

    test('1,000 users, the sending node killed mid-run: each reached once, the counts exact', async () => {
      const env = { DATABASE_URL: database.databaseUrl!, COLLOQUY_META_GRAPH_URL: wa.graphUrl, COLLOQUY_JOB_CLAIM_SECONDS: String(CLAIM_SECONDS) };
      const a = await startNode({ ...env, COLLOQUY_DATA_DIR: database.dataDir });
      nodes.push(a);
      const tenant = await createTenant(a.client, promoBot({ broadcasts: { messagesPerSecond: PER_SECOND } }));
      const [phoneNumberId, accessToken] = ['1099887766', `EAAGcrash${'Q'.repeat(40)}`];
      wa.numbers.set(phoneNumberId, accessToken);
      const connected = await a.client.put(
        `/bots/${tenant.botKey}/channels/whatsapp`,
        { PhoneNumberId: phoneNumberId, AccessToken: accessToken, AppSecret: 'crash-app-secret-0123456789' },
        { token: tenant.accountToken },
      );
      assert.equal(connected.status, 200, connected.text);
      await seedWhatsAppUsers(database.databaseUrl!, tenant.botKey, USERS);

      const created = await a.client.post(`/bots/${tenant.botKey}/broadcasts`, { Name: 'Crash', Behaviour: 'Promo', Audience: { Channels: ['whatsapp'] } }, { token: tenant.accountToken });
      assert.equal(created.status, 201, created.text);
      const id = created.body.BroadcastId as string;
      const get = async (node: NodeProcess) => (await node.client.get(`/bots/${tenant.botKey}/broadcasts/${id}`, { token: tenant.accountToken })).body;
      // node A leases the broadcast first; B joins once it runs, so A is the one sending
      while ((await get(a)).Counts.Sent === 0) await sleep(50);
      const b = await startNode({ ...env, COLLOQUY_DATA_DIR: database.dataDir });
      nodes.push(b);
      let atKill = await get(a);
      while (atKill.Counts.Sent < USERS * 0.3) atKill = (await sleep(50), await get(a));
      await a.kill();
      assert.ok(atKill.Counts.Pending > 0, `killed mid-run: ${JSON.stringify(atKill.Counts)}`);

      let last = await get(b);
      for (const deadline = Date.now() + 45_000; !(last.Status === 'done' && last.Counts.Delivered + last.Counts.Failed === last.Counts.Sent); ) {
        assert.ok(Date.now() < deadline, `node B did not finish: ${JSON.stringify(last)}`);
        last = (await sleep(200), await get(b));
      }

      // what each user got from the double, and what the database says of each recipient
      const received = new Map<string, number>();
      for (const call of wa.calls) {
        if (call.status === 200 && call.body.interactive?.action?.buttons?.[0]?.reply?.id === B_MORE) received.set(call.body.to, (received.get(call.body.to) ?? 0) + 1);
      }
      const db = new pg.Client({ connectionString: database.databaseUrl! });
      await db.connect();
      const { rows } = await db
        .query<{ user_id: string; status: string; reason: string | null }>(
          'SELECT c.user_id, r.status, r.reason FROM broadcast_recipients r JOIN conversations c ON c.id = r.conversation_id WHERE r.broadcast_id = $1',
          [id],
        )
        .finally(() => db.end());
      const numberOfUser = (userId: string) => userId.slice('whatsapp:'.length);
      const byStatus = (s: string) => rows.filter((r) => r.status === s);
      assert.equal(rows.length, USERS, 'every conversation is a recipient, once');
      assert.deepEqual(
        [...received.values()].filter((n) => n > 1),
        [],
        'no user received it twice',
      );
      assert.deepEqual(
        byStatus('delivered').filter((r) => received.get(numberOfUser(r.user_id)) !== 1),
        [],
        'every delivered recipient got exactly one message',
      );
      const failed = byStatus('failed');
      assert.deepEqual(
        [...new Set(failed.map((r) => r.reason))].filter((r) => r !== 'interrupted'),
        [],
        'the only failures are deliveries the dead node had on the wire',
      );
      assert.equal(byStatus('delivered').length + failed.length, USERS, 'nothing pending, sent-but-undecided or skipped');
      // a user the double never reached is one of those counted as interrupted, never silently lost
      const missing = rows.filter((r) => !received.has(numberOfUser(r.user_id)));
      assert.deepEqual(
        missing.filter((r) => r.status !== 'failed'),
        [],
      );
      const c = last.Counts;
      assert.deepEqual(
        [c.Audience, c.Pending, c.Sent, c.Delivered, c.Failed, c.Skipped, c.Reasons],
        [USERS, 0, USERS, byStatus('delivered').length, failed.length, 0, failed.length > 0 ? { interrupted: failed.length } : {}],
      );
      assert.ok(failed.length <= 64, `at most one claimed batch was on the wire: ${failed.length}`);
      assert.deepEqual(wa.violations, []);
    });
  });
}
