// Several real server processes on one PostgreSQL database (architecture.md "Concurrency and
// scale-out"). Runs when DATABASE_URL is set, as in CI.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startNode, type NodeProcess } from '../support/node-process.js';
import { openSse } from '../support/sse.js';
import { startWeb, webKeyOf } from '../support/web-kit.js';

const counterBot = {
  format: 'colloquy/bot@1',
  name: 'Counter',
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        { name: 'Start', start: true, actions: [{ type: 'text', text: 'ready' }] },
        {
          name: 'Count',
          fallback: true,
          actions: [
            { type: 'setVariable', name: 'count', mode: 'add', value: '1' },
            { type: 'text', text: 'count is {{count}}' },
          ],
        },
      ],
    },
  ],
};

const countOf = async (node: NodeProcess, tenant: Tenant, userId: string) => {
  const values = await node.client.get(`/custom/values?userid=${userId}`, { token: tenant.botToken });
  return values.body.Variables.find((v: { Name: string }) => v.Name === 'count')?.Value;
};

for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe('two nodes on one PostgreSQL database', () => {
    let database: TestDatabase;
    let a: NodeProcess;
    let b: NodeProcess;
    let tenant: Tenant;

    before(async () => {
      database = await createTestDatabase(kind);
      // Both nodes start at once: migrations must run exactly once between them.
      [a, b] = await Promise.all([startNode({ DATABASE_URL: database.databaseUrl! }), startNode({ DATABASE_URL: database.databaseUrl! })]);
      tenant = await createTenant(a.client, counterBot);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.drop();
    });

    test('a token issued by one node works on the other', async () => {
      const config = await b.client.get('/custom/config', { token: tenant.botToken });
      assert.equal(config.status, 200);
      assert.equal(config.body.Name, 'Counter');
    });

    test('one conversation alternating between nodes stays consistent', async () => {
      await a.client.post('/custom/chat', { UserId: 'alt' }, { token: tenant.botToken });
      for (let i = 1; i <= 10; i++) {
        const node = i % 2 === 0 ? a : b;
        const res = await node.client.post('/custom/chat', { UserId: 'alt', Text: `t${i}` }, { token: tenant.botToken });
        assert.equal(res.status, 200);
        assert.equal(res.body.Parts[0].Text, `count is ${i}`);
      }
      const history = await b.client.post('/custom/chat', { UserId: 'alt', Command: 'READY' }, { token: tenant.botToken });
      const texts = history.body.Parts.map((p: { Text: string }) => p.Text);
      assert.deepEqual(texts.slice(0, 3), ['ready', 't1', 'count is 1']);
      assert.deepEqual(texts.slice(-2), ['t10', 'count is 10']);
      assert.equal(texts.length, 1 + 20);
    });

    test('100 concurrent increments split across nodes end at exactly 100', async () => {
      await a.client.post('/custom/chat', { UserId: 'race' }, { token: tenant.botToken });
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).client.post('/custom/chat', { UserId: 'race', Text: 'more' }, { token: tenant.botToken })));
      assert.deepEqual([...new Set(results.map((r) => r.status))], [200]);
      const seen = results.map((r) => Number(/count is (\d+)/.exec(r.body.Parts[0].Text)![1])).sort((x, y) => x - y);
      assert.deepEqual(
        seen,
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      assert.equal(await countOf(a, tenant, 'race'), '100');
    });

    test('a browser stream on node B receives what node A wrote (web channel, LISTEN/NOTIFY)', async () => {
      const support = await createTenant(a.client, supportBot());
      const key = await webKeyOf(a.client, support);
      const started = await startWeb(b.client, key, { ClientId: 'tab-b' });
      const stream = await openSse(`${b.url}/web/${key}/events?userid=${started.UserId}&client=tab-b`);
      try {
        assert.equal(stream.status, 200);
        await stream.next((e) => e.event === 'ready');
        const injected = await a.client.post(
          '/custom/chat',
          { UserId: started.UserId, Text: 'Hello from node A' },
          {
            token: support.botToken,
            headers: { channel: 'web', direction: 'OPERATOR' },
          },
        );
        assert.equal(injected.status, 200);
        const event = await stream.next((e) => e.event === 'message', 10_000);
        assert.deepEqual(event.data.Parts, injected.body.Parts);
      } finally {
        stream.close();
      }
    });

    test('an injection on one node is in a PENDING poll on the other, once', async () => {
      await a.client.post('/custom/chat', { UserId: 'inject' }, { token: tenant.botToken });
      const injected = await a.client.post('/custom/chat', { UserId: 'inject', Text: 'from an operator' }, { token: tenant.botToken, headers: { direction: 'OPERATOR' } });
      assert.equal(injected.status, 200);
      const [first, second] = await Promise.all([
        b.client.post('/custom/chat', { UserId: 'inject', Command: 'PENDING' }, { token: tenant.botToken }),
        a.client.post('/custom/chat', { UserId: 'inject', Command: 'PENDING' }, { token: tenant.botToken }),
      ]);
      const delivered = [...first.body.Parts, ...second.body.Parts].map((p: { Text: string }) => p.Text);
      assert.deepEqual(delivered, ['from an operator']);
    });
  });

  // Issue 22: the nodes add up their rate-limit and failure counts (src/http/rate-limit-store.ts).
  // A client that alternates between two nodes and waits for each answer gets exactly the bound
  // docs/operations.md states, not twice the limit.
  describe('limits shared by two nodes on one PostgreSQL database', () => {
    let database: TestDatabase;
    let a: NodeProcess;
    let b: NodeProcess;
    let tenant: Tenant;
    // 40 a minute: a node reports every 2 requests of a key (a twentieth); 10 failures per credential: every one
    const env = () => ({ DATABASE_URL: database.databaseUrl!, COLLOQUY_RATE_LIMIT_PER_MINUTE: '40', COLLOQUY_TRUST_PROXY: 'loopback' });

    before(async () => {
      database = await createTestDatabase(kind);
      a = await startNode(env());
      b = await startNode(env());
      tenant = await createTenant(a.client, counterBot);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.drop();
    });

    test('a token used on both nodes in turn: 41 answers (40 + (2 - 1) × (2 - 1)), then 429 on either node', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 46; i++) statuses.push((await (i % 2 === 0 ? a : b).client.get('/custom/config', { token: tenant.botToken })).status);
      assert.deepEqual(statuses, [...Array(41).fill(200), ...Array(5).fill(429)]);
    });

    test('one wrong token from many addresses on both nodes in turn: 11 answers 401 (10 + 2 × 1 - 1), then 429', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const node = i % 2 === 0 ? a : b;
        statuses.push((await node.client.get('/custom/config', { headers: { authorization: 'Bearer one-guess', 'x-forwarded-for': `198.51.100.${i + 1}` } })).status);
      }
      assert.deepEqual(statuses, [...Array(11).fill(401), ...Array(3).fill(429)]);
    });

    test('wrong account keys from one address on both nodes in turn: 63 answers 404 (at most 60 + 2 × 3 - 1), then only 429', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 70; i++) {
        const node = i % 2 === 0 ? a : b;
        statuses.push((await node.client.post('/authorization/integration', { AccountAPIKey: `acc_guess${i}` }, { headers: { 'x-forwarded-for': '203.0.113.30' } })).status);
      }
      // Each node reports every 3 failures of the address. After 60 failures node B knows of all 60
      // and refuses; node A last heard of 57 and serves 3 more before its report tells it of 63.
      assert.deepEqual(statuses, [...Array(60).fill(404), 404, 429, 404, 429, 404, ...Array(5).fill(429)]);
      const right = await b.client.post('/authorization/integration', { AccountAPIKey: tenant.accountKey }, { headers: { 'x-forwarded-for': '203.0.113.31' } });
      assert.equal(right.status, 200, 'a correct key from another address is served');
    });
  });

  describe('nodes that die and nodes that dispatch', () => {
    let database: TestDatabase;
    let receiver: http.Server;
    let receiverUrl: string;
    const deliveries: string[] = [];
    let hang = false;

    before(async () => {
      database = await createTestDatabase(kind);
      receiver = http.createServer((req, res) => {
        if (hang) return; // accept the request and never answer: the sender is stuck mid-delivery
        const header = req.headers['x-colloquy-delivery'];
        if (typeof header === 'string') deliveries.push(header);
        req.resume();
        req.on('end', () => res.writeHead(200).end('ok'));
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    after(async () => {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      await database?.drop();
    });

    test('a node killed during a burst loses no acknowledged turn', async () => {
      const env = { DATABASE_URL: database.databaseUrl! };
      const [a, b] = await Promise.all([startNode(env), startNode(env)]);
      try {
        const tenant = await createTenant(a.client, counterBot);
        const burst = Array.from({ length: 80 }, (_, i) => a.client.post('/custom/chat', { UserId: `burst-${i}`, Text: `hello ${i}` }, { token: tenant.botToken }).catch(() => null));
        await new Promise((resolve) => setTimeout(resolve, 150));
        await a.kill();
        const answers = await Promise.all(burst);
        const acknowledged = answers.flatMap((r, i) => (r && r.status === 200 ? [i] : []));
        for (const i of acknowledged) {
          const history = await b.client.post('/custom/chat', { UserId: `burst-${i}`, Command: 'READY' }, { token: tenant.botToken });
          assert.deepEqual(
            history.body.Parts.map((p: { Type: number; Text: string }) => [p.Type, p.Text]),
            [
              [19, `hello ${i}`],
              [0, 'ready'],
            ],
            `turn ${i} was acknowledged but is not stored as it was answered`,
          );
        }
      } finally {
        await b.stop();
      }
    });

    test('with three dispatching nodes every webhook event is delivered exactly once', async () => {
      const env = { DATABASE_URL: database.databaseUrl! };
      const nodes = await Promise.all([startNode(env), startNode(env), startNode(env)]);
      try {
        const tenant = await createTenant(nodes[0].client, counterBot);
        const settings = await nodes[0].client.patch(`/bots/${tenant.botKey}/settings`, { channels: { custom: { webhookUrl: receiverUrl } } }, { token: tenant.accountToken });
        assert.equal(settings.status, 200);
        deliveries.length = 0;
        for (let c = 0; c < 6; c++) await nodes[c % 3].client.post('/custom/chat', { UserId: `hook-${c}` }, { token: tenant.botToken });
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => nodes[i % 3].client.post('/custom/chat', { UserId: `hook-${i % 6}`, Text: `note ${i}` }, { token: tenant.botToken, headers: { direction: 'BOT' } })),
        );
        const deadline = Date.now() + 20_000;
        while (deliveries.length < 30 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        await new Promise((resolve) => setTimeout(resolve, 1500));
        assert.equal(deliveries.length, 30);
        assert.equal(new Set(deliveries).size, 30);
      } finally {
        await Promise.all(nodes.map((n) => n.stop()));
      }
    });

    test('deliveries a killed node had claimed are completed by the surviving node', async () => {
      const env = { DATABASE_URL: database.databaseUrl!, COLLOQUY_JOB_CLAIM_SECONDS: '2' };
      const [a, b] = await Promise.all([startNode(env), startNode(env)]);
      try {
        const tenant = await createTenant(a.client, counterBot);
        await a.client.patch(`/bots/${tenant.botKey}/settings`, { channels: { custom: { webhookUrl: receiverUrl } } }, { token: tenant.accountToken });
        await a.client.post('/custom/chat', { UserId: 'orphan' }, { token: tenant.botToken });
        await b.stop(); // only A may claim while the receiver hangs
        hang = true;
        deliveries.length = 0;
        for (let i = 0; i < 3; i++) {
          await a.client.post('/custom/chat', { UserId: 'orphan', Text: `job ${i}` }, { token: tenant.botToken, headers: { direction: 'OPERATOR' } });
        }
        await new Promise((resolve) => setTimeout(resolve, 700)); // A has claimed the first and is stuck sending it
        await a.kill();
        hang = false;
        const c = await startNode(env);
        try {
          const deadline = Date.now() + 20_000;
          while (deliveries.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
          assert.equal(deliveries.length, 3);
          const list = await c.client.get(`/bots/${tenant.botKey}/deliveries`, { token: tenant.accountToken });
          assert.deepEqual(
            list.body.Result.map((d: { Status: string }) => d.Status),
            ['delivered', 'delivered', 'delivered'],
          );
        } finally {
          await c.stop();
        }
      } finally {
        await b.stop().catch(() => null);
      }
    });
  });
}
