// api.md section 3: "All of it happens in one atomic turn: concurrent requests for the same
// conversation are serialized, never interleaved, on one node or many."
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { start, type Running } from '../../src/main.js';
import { Client } from '../support/client.js';
import { botFile, chatOk, text, uid, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

const counterBot = () =>
  botFile([
    { name: 'Start', actions: [text('ready')] },
    {
      name: 'Count',
      fallback: true,
      actions: [{ type: 'setVariable', name: 'counter', mode: 'add', value: '1' }, text('count {{counter}}')],
    },
  ]);

const N = 50;

/** Checks the history: the RESET reply, then exactly N user parts each directly followed by its reply, counting 1..N. */
async function assertSerialized(server: TestServer, tenant: Tenant, user: string, sent: string[]) {
  assert.equal((await variablesOf(server, tenant.botToken, user)).counter, String(N));
  const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
  const parts = ready.Parts.map((p: any) => [p.Type, p.Text]);
  assert.deepEqual(parts[0], [0, 'ready']);
  const rest = parts.slice(1);
  assert.equal(rest.length, 2 * N);
  assert.equal(rest.filter((p: any) => p[0] === 19).length, N);
  assert.equal(rest.filter((p: any) => p[0] === 0).length, N);
  for (let i = 0; i < N; i++) {
    assert.equal(rest[2 * i][0], 19, `part ${2 * i} is a user part`);
    assert.deepEqual(rest[2 * i + 1], [0, `count ${i + 1}`], `turn ${i + 1} answered right after its user part`);
  }
  assert.deepEqual(
    rest
      .filter((p: any) => p[0] === 19)
      .map((p: any) => p[1])
      .sort(),
    [...sent].sort(),
  );
}

for (const kind of databaseKinds()) {
  describe(`chat: concurrent turns of one conversation (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, counterBot());
    });
    after(() => server.close());

    test(`${N} concurrent messages on one node: counter ${N}, ${N} user messages and ${N} replies, never interleaved`, async () => {
      const user = uid('race');
      await chatOk(server, tenant.botToken, { UserId: user });
      const sent = Array.from({ length: N }, (_, i) => `tick ${i + 1}`);
      const replies = await Promise.all(sent.map((t) => server.client.post('/custom/chat', { UserId: user, Text: t }, { token: tenant.botToken })));
      assert.deepEqual(
        replies.map((r) => r.status),
        new Array(N).fill(200),
      );
      const counts = replies.map((r) => Number(/^count (\d+)$/.exec(r.body.Parts[0].Text)![1])).sort((a, b) => a - b);
      assert.deepEqual(
        counts,
        Array.from({ length: N }, (_, i) => i + 1),
      );
      await assertSerialized(server, tenant, user, sent);
    });

    test(`${N} concurrent first messages of a new conversation create it once`, async () => {
      const user = uid('race-new');
      const replies = await Promise.all(Array.from({ length: N }, () => server.client.post('/custom/chat', { UserId: user, Command: 'RESET' }, { token: tenant.botToken })));
      assert.deepEqual(
        replies.map((r) => r.status),
        new Array(N).fill(200),
      );
      // one conversation: its start date is one, and its history holds every turn's welcome
      const values = await server.client.get(`/custom/values?userid=${user}`, { token: tenant.botToken });
      assert.equal(values.body.Variables.filter((v: any) => v.Name === 'creation_date').length, 1);
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.equal(ready.Parts.length, N);
    });

    describe('two nodes on one database', () => {
      let second: Running;
      let secondClient: Client;
      before(async () => {
        const config = server.running.services.config;
        second = await start(
          loadConfig({
            PORT: '0',
            HOST: '127.0.0.1',
            COLLOQUY_DATA_DIR: config.dataDir,
            COLLOQUY_DEMO: '0',
            COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
            COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
            COLLOQUY_BUILTIN_MODEL: 'off',
            ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}),
          }),
        );
        secondClient = new Client(second.url);
      });
      after(() => second.close());

      test(`${N} concurrent messages split over two nodes are serialized too`, async () => {
        const user = uid('race-2');
        await chatOk(server, tenant.botToken, { UserId: user });
        const sent = Array.from({ length: N }, (_, i) => `tick ${i + 1}`);
        const replies = await Promise.all(sent.map((t, i) => (i % 2 === 0 ? server.client : secondClient).post('/custom/chat', { UserId: user, Text: t }, { token: tenant.botToken })));
        assert.deepEqual(
          replies.map((r) => `${r.status} ${r.status === 200 ? '' : r.text}`),
          new Array(N).fill('200 '),
        );
        await assertSerialized(server, tenant, user, sent);
      });
    });
  });
}
