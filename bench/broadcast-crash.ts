// Exactly once under a crash (broadcasts.md "Exactly once"): two server processes on one
// PostgreSQL database, a 10,000-recipient WhatsApp broadcast to the Cloud API double, and the node
// driving it killed with SIGKILL in the middle. Then: no user received it twice, every recipient
// is accounted for (Delivered + Failed + Skipped = Audience), and the ones the double never got
// are exactly those counted as failed `interrupted` or not at all. Prints throughput and time.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/broadcast-crash.ts [recipients]
// Not part of `npm test`: it takes about a minute.
import assert from 'node:assert/strict';
import { createTestDatabase } from '../test/support/databases.js';
import { B_MORE, promoBot } from '../test/support/broadcast-kit.js';
import { seedWhatsAppUsers } from '../test/support/broadcast-seed.js';
import { createTenant } from '../test/support/fixtures.js';
import { startNode, type NodeProcess } from '../test/support/node-process.js';
import { WhatsAppDouble } from '../test/support/whatsapp-double.js';

const RECIPIENTS = Number(process.argv[2] ?? 10_000);
const CLAIM_SECONDS = 15;

if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL to a PostgreSQL server');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const wa = await WhatsAppDouble.start();
const database = await createTestDatabase('postgres');
const env = { DATABASE_URL: database.databaseUrl!, COLLOQUY_DATA_DIR: database.dataDir, COLLOQUY_META_GRAPH_URL: wa.graphUrl, COLLOQUY_JOB_CLAIM_SECONDS: String(CLAIM_SECONDS) };
const nodes: NodeProcess[] = [];
try {
  const a = await startNode(env);
  nodes.push(a);
  const tenant = await createTenant(a.client, promoBot({ broadcasts: { messagesPerSecond: 1000 } }));
  const phoneNumberId = '1099887766';
  const accessToken = `EAAGbench${'Q'.repeat(40)}`;
  wa.numbers.set(phoneNumberId, accessToken);
  const connected = await a.client.put(
    `/bots/${tenant.botKey}/channels/whatsapp`,
    { PhoneNumberId: phoneNumberId, AccessToken: accessToken, AppSecret: 'bench-app-secret-0123456789' },
    { token: tenant.accountToken },
  );
  assert.equal(connected.status, 200, connected.text);

  // WhatsApp users who wrote within the day, written straight into the database
  await seedWhatsAppUsers(database.databaseUrl!, tenant.botKey, RECIPIENTS);

  const started = Date.now();
  const created = await a.client.post(`/bots/${tenant.botKey}/broadcasts`, { Name: 'Crash', Behaviour: 'Promo', Audience: { Channels: ['whatsapp'] } }, { token: tenant.accountToken });
  assert.equal(created.status, 201, created.text);
  const id = created.body.BroadcastId as string;
  const get = async (node: NodeProcess) => (await node.client.get(`/bots/${tenant.botKey}/broadcasts/${id}`, { token: tenant.accountToken })).body;
  // node A holds the broadcast's lease; the second node joins once it runs (it delivers outbox rows meanwhile)
  while ((await get(a)).Counts.Sent === 0) await sleep(50);
  const b = await startNode(env);
  nodes.push(b);
  let atKill = await get(a);
  while (atKill.Counts.Sent < RECIPIENTS * 0.4) {
    await sleep(100);
    atKill = await get(a);
  }
  await a.kill();
  const killedAt = Date.now();
  console.log(`killed node A with SIGKILL after ${killedAt - started} ms: ${JSON.stringify(atKill.Counts)}`);

  // node B takes the lease over once it runs out, then the claims A left, then A's unfinished deliveries
  let last = await get(b);
  while (!(last.Status === 'done' && last.Counts.Delivered + last.Counts.Failed === last.Counts.Sent)) {
    await sleep(200);
    last = await get(b);
    if (Date.now() - started > 1_200_000) throw new Error(`not done in 20 minutes: ${JSON.stringify(last)}`);
  }
  const finished = Date.now();
  const c = last.Counts;
  const received = new Map<string, number>();
  for (const call of wa.calls)
    if (call.status === 200 && call.body.type === 'interactive' && call.body.interactive.action?.buttons?.[0]?.reply?.id === B_MORE) received.set(call.body.to, (received.get(call.body.to) ?? 0) + 1);
  const twice = [...received.values()].filter((n) => n > 1).length;
  const interrupted = c.Reasons.interrupted ?? 0;
  const missing = RECIPIENTS - received.size;
  console.log(`counts: ${JSON.stringify(c)}`);
  console.log(`received by the double: ${received.size} users once, ${twice} twice or more, ${missing} never`);
  assert.equal(c.Audience, RECIPIENTS, 'every conversation was a recipient');
  assert.equal(twice, 0, 'no user received it twice');
  assert.equal(c.Sent + c.Skipped, c.Audience, 'every recipient was sent or skipped');
  assert.equal(c.Delivered + c.Failed, c.Sent, 'every sent one was delivered or failed');
  assert.equal(c.Failed, interrupted, 'the only failures are deliveries a dead node left mid-call');
  assert.ok(missing <= interrupted, 'a user the double never reached is counted as failed (interrupted), never silently lost');
  assert.ok(received.size >= c.Delivered, 'every delivered one reached the double');
  assert.deepEqual(wa.violations, []);
  const seconds = (finished - started) / 1000;
  console.log(
    `${RECIPIENTS} recipients in ${seconds.toFixed(1)} s (${Math.round(RECIPIENTS / seconds)} a second overall, the takeover wait of ${CLAIM_SECONDS}+${CLAIM_SECONDS} s included); before the kill: ${Math.round(atKill.Counts.Sent / ((killedAt - started) / 1000))} turns a second on one node`,
  );
} finally {
  for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) await node.stop();
  await wa.close();
  await database.drop();
}
