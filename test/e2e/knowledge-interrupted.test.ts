// A source left `indexing` by a node that stopped (knowledge/indexing-lease.ts): its document was
// only in that node's memory, so it can never become ready. Any node's maintenance marks it failed,
// with a reason that says to send it again, once its lease has run out; a source whose lease is
// held, or that was added less than a lease ago (its claim may not be written yet), is left alone.
// SQLite has one server per database: at start, every source still indexing was left by the last
// one and is failed at once; on PostgreSQL another node may be indexing it, so the lease decides.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import { INDEXING_LEASE_MS, INTERRUPTED } from '../../src/knowledge/indexing-lease.js';
import { clockFrom } from '../../src/shared/clock.js';
import { botIdOf } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { base, longDocument } from '../support/knowledge-kit.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

const START = Date.parse('2026-05-04T10:00:00Z');
const LIMITS = { sources: 200, bytes: 50 * 1024 * 1024 };

/** What a node that took a large source wrote before it stopped: the row, `indexing`, and maybe its lease. */
async function leftIndexing(server: TestServer, botId: string, name: string, changedAt: number, claimedUntil: number | null): Promise<string> {
  const id = crypto.randomUUID();
  const source = {
    id,
    botId,
    name,
    kind: 'text' as const,
    url: null,
    status: 'indexing' as const,
    error: null,
    chunks: 0,
    bytes: 2_000_000,
    generation: 0,
    createdAt: changedAt,
    updatedAt: changedAt,
  };
  const store = server.running.store;
  assert.equal(await store.transaction((tx) => tx.knowledge.insert(source, LIMITS)), null);
  if (claimedUntil !== null) await store.knowledgeLeases.claim(id, 0, claimedUntil);
  return id;
}

async function statusOf(server: TestServer, tenant: Tenant, id: string): Promise<[string, string | null, number]> {
  const res = await server.client.get(`${base(tenant)}/${id}`, { token: tenant.accountToken });
  assert.equal(res.status, 200, res.text);
  return [res.body.Status, res.body.Error, res.body.Chunks];
}

for (const kind of databaseKinds()) {
  describe(`sources left indexing by a stopped node (${kind})`, () => {
    test('maintenance fails a source once its lease ran out; a held or just-added one stays indexing until then', async () => {
      const database = await createTestDatabase(kind);
      let now = START;
      const server = await startTestServerOn(database, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      try {
        const tenant = await createTenant(server.client);
        const botId = await botIdOf(server, tenant.botKey);
        const dead = await leftIndexing(server, botId, 'Dead', now - 2 * INDEXING_LEASE_MS, now - 1);
        const held = await leftIndexing(server, botId, 'Held', now - 10 * INDEXING_LEASE_MS, now + INDEXING_LEASE_MS / 2);
        const fresh = await leftIndexing(server, botId, 'Fresh', now - 5_000, null);
        await server.running.maintenance.runOnce();
        assert.deepEqual(await statusOf(server, tenant, dead), ['failed', INTERRUPTED, 0]);
        assert.deepEqual(await statusOf(server, tenant, held), ['indexing', null, 0]);
        assert.deepEqual(await statusOf(server, tenant, fresh), ['indexing', null, 0]);

        now += INDEXING_LEASE_MS + 1;
        await server.running.maintenance.runOnce();
        assert.deepEqual(await statusOf(server, tenant, held), ['failed', INTERRUPTED, 0]);
        assert.deepEqual(await statusOf(server, tenant, fresh), ['failed', INTERRUPTED, 0]);
        const listed = await server.client.get(base(tenant), { token: tenant.accountToken });
        const iso = clockFrom(() => now).iso;
        assert.deepEqual(listed.body.Result.map((s: any) => [s.Name, s.Status, s.UpdatedAt]).sort(), [
          ['Dead', 'failed', iso(START)],
          ['Fresh', 'failed', iso(now)],
          ['Held', 'failed', iso(now)],
        ]);
        // a failed source is replaced as usual
        const put = await server.client.put(`${base(tenant)}/${dead}`, { Name: 'Dead', Text: 'Sent again, indexed at once.' }, { token: tenant.accountToken });
        assert.equal(put.status, 200, put.text);
        assert.deepEqual([put.body.Status, put.body.Error, put.body.Chunks], ['ready', null, 1]);
      } finally {
        await server.close();
        await database.drop();
      }
    });

    test(
      kind === 'sqlite' ? 'a restart fails at once what the last server left indexing, lease or not' : 'a restart leaves a source with a live lease indexing: another node may hold it',
      async () => {
        const database = await createTestDatabase(kind);
        let now = START;
        const options = { clock: clockFrom(() => now) };
        const env = { COLLOQUY_TOKEN_MINUTES: '100000' };
        const first = await startTestServerOn(database, env, options);
        let second: TestServer | null = null;
        try {
          const tenant = await createTenant(first.client);
          const id = await leftIndexing(first, await botIdOf(first, tenant.botKey), 'Large', now, now + INDEXING_LEASE_MS);
          await first.close();
          now += 1_000;
          second = await startTestServerOn(database, env, options);
          assert.deepEqual(await statusOf(second, tenant, id), kind === 'sqlite' ? ['failed', INTERRUPTED, 0] : ['indexing', null, 0]);
        } finally {
          await second?.close();
          await database.drop();
        }
      },
    );

    test('a source indexed in the background ends ready: maintenance running meanwhile does not fail it', async () => {
      const database = await createTestDatabase(kind);
      const server = await startTestServerOn(database);
      try {
        const tenant = await createTenant(server.client);
        const big = longDocument(1_300_000);
        const added = await server.client.post(base(tenant), { Name: 'Big', Text: big }, { token: tenant.accountToken });
        assert.equal(added.status, 201, added.text);
        assert.equal(added.body.Status, 'indexing');
        await server.running.maintenance.runOnce();
        await server.running.services.knowledge.settled();
        await server.running.maintenance.runOnce();
        const [status, error] = await statusOf(server, tenant, added.body.SourceId);
        assert.deepEqual([status, error], ['ready', null]);
      } finally {
        await server.close();
        await database.drop();
      }
    });
  });
}
