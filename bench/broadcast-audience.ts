// A broadcast's audience at 100,000 conversations (issue 35): how long the preview and the start
// of a run take, and how much memory the server process needs for them, on SQLite (and PostgreSQL
// when DATABASE_URL is set). Each measurement runs in a fresh `colloquy serve` process, so its
// peak resident memory (VmHWM in /proc) is that of the one operation over the idle server. The
// audience is walked a page of conversations at a time (broadcasts/audience.ts); the recipients
// of a run are kept as small records until they are written with the run's start.
//
//   npx tsx bench/broadcast-audience.ts [conversations]            (SQLite)
//   DATABASE_URL=postgres://… npx tsx bench/broadcast-audience.ts   (and PostgreSQL)
// Not part of `npm test`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { promoBot } from '../test/support/broadcast-kit.js';
import { seedCustomUsers } from '../test/support/broadcast-seed.js';
import { createTestDatabase, databaseKinds } from '../test/support/databases.js';
import { createTenant, type Tenant } from '../test/support/fixtures.js';
import { startNode, type NodeProcess } from '../test/support/node-process.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const peakMiB = (node: NodeProcess) => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${node.child.pid}/status`, 'utf8'))![1]) / 1024;

/** `what` may call `done` to end the measurement early (before its own clean-up). */
async function measure(env: Record<string, string>, tenant: Tenant, what: (node: NodeProcess, done: () => void) => Promise<string>) {
  const node = await startNode(env);
  try {
    // a warm-up request, so the idle figure includes the routes and the bot loaded
    await node.client.post(`/bots/${tenant.botKey}/broadcasts/preview`, { Audience: { UserIds: ['u1'] } }, { token: tenant.accountToken });
    const idle = peakMiB(node);
    // /health asked every 20 ms meanwhile: the longest answer is how long the server stalled
    let [probing, worst] = [true, 0];
    const probe = (async () => {
      while (probing) {
        const at = performance.now();
        await node.client.get('/health');
        worst = Math.max(worst, performance.now() - at);
        await sleep(20);
      }
    })();
    const started = performance.now();
    let figures = '';
    const done = () => {
      if (figures) return;
      probing = false;
      figures = `${((performance.now() - started) / 1000).toFixed(2)} s, /health at worst ${worst.toFixed(0)} ms, peak RSS ${idle.toFixed(0)} → ${peakMiB(node).toFixed(0)} MiB`;
    };
    const result = await what(node, done);
    done();
    await probe;
    return `${figures} (${result})`;
  } finally {
    await node.stop();
  }
}

for (const kind of databaseKinds()) {
  const database = await createTestDatabase(kind);
  const env = { COLLOQUY_DATA_DIR: database.dataDir, ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}) };
  try {
    const first = await startNode(env);
    const tenant = await createTenant(first.client, promoBot({ broadcasts: { messagesPerSecond: 1 } }));
    await first.stop();
    const seeded = performance.now();
    await seedCustomUsers(database, tenant.botKey, COUNT);
    console.log(`${kind}: ${COUNT} conversations seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    const path = `/bots/${tenant.botKey}/broadcasts`;
    for (const [name, audience] of [
      ['everyone', {}],
      ['tagged, gold', { Tags: { all: ['customer'] }, Variables: [{ Name: 'plan', Op: 'eq', Value: 'gold' }], ActiveWithinDays: 30 }],
    ] as const) {
      console.log(
        `${kind} preview (${name}): ${await measure(env, tenant, async (node) => {
          const res = await node.client.post(`${path}/preview`, { Audience: audience }, { token: tenant.accountToken });
          assert.equal(res.status, 200, res.text);
          return `Count ${res.body.Count}`;
        })}`,
      );
    }
    console.log(
      `${kind} run start (everyone): ${await measure(env, tenant, async (node, done) => {
        const created = await node.client.post(path, { Name: 'Big', Behaviour: 'Promo', Audience: {} }, { token: tenant.accountToken });
        assert.equal(created.status, 201, created.text);
        let b = created.body;
        while (b.Status !== 'running') b = (await sleep(20), (await node.client.get(`${path}/${b.BroadcastId}`, { token: tenant.accountToken })).body);
        done();
        const cancelling = performance.now();
        const cancelled = await node.client.post(`${path}/${b.BroadcastId}/cancel`, {}, { token: tenant.accountToken });
        return `Audience ${b.Counts.Audience}; then the cancel: ${cancelled.body.Counts.Skipped} skipped in ${Math.round(performance.now() - cancelling)} ms`;
      })}`,
    );
  } finally {
    await database.drop();
  }
}
