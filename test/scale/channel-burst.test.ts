// channels.md: a burst of 500 inbound Telegram updates over 50 users is answered without a 5xx,
// each well under a second, and every reply is delivered in order per user. The figures are
// printed (the note quotes them); the assertions are about correctness, not speed. The
// server is a process of its own, so that the load and its measure do not share its event loop.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, text } from '../support/chat-kit.js';
import { createTenant } from '../support/fixtures.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { startNode, type NodeProcess } from '../support/node-process.js';
import { TelegramDouble } from '../support/telegram-double.js';

const TOKEN = '314159265:AAH-burst-token-abcdefghijklmnopqrst';
const USERS = 50;
const PER_USER = 10;

for (const kind of databaseKinds()) {
  describe(`Telegram burst: ${USERS * PER_USER} updates over ${USERS} users (${kind})`, () => {
    let telegram: TelegramDouble;
    let database: TestDatabase;
    let server: NodeProcess;
    let path: string;
    let secret: string;
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'burst_bot');
      database = await createTestDatabase(kind);
      server = await startNode({
        COLLOQUY_DATA_DIR: database.dataDir,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
        COLLOQUY_TELEGRAM_API_URL: telegram.url,
        COLLOQUY_PUBLIC_URL: 'http://127.0.0.1:9',
      });
      const tenant = await createTenant(
        server.client,
        botFile([
          { name: 'Echo', actions: [text('got {{last_user_text}}')] },
          { name: 'Sorry', fallback: true, actions: [text('got {{last_user_text}}')] },
        ]),
      );
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/telegram`, { Token: TOKEN }, { token: tenant.accountToken });
      assert.equal(connected.status, 200);
      path = new URL(connected.body.WebhookUrl).pathname;
      secret = telegram.webhook!.secret_token;
    });
    after(async () => {
      await server.stop();
      await telegram.close();
      await database.drop();
    });

    test('every update is answered 200 and every reply is delivered once, in order per user', async () => {
      let update = 0;
      // A server that has served before (code compiled by the JIT, schemas compiled): one update first.
      const warm = { update_id: ++update, message: { message_id: 1, date: 1700000000, chat: { id: 1, type: 'private' }, from: { id: 1, is_bot: false, first_name: 'W' }, text: 'warm' } };
      assert.equal((await server.client.post(path, warm, { headers: { 'x-telegram-bot-api-secret-token': secret } })).status, 200);
      await telegram.waitFor(() => telegram.textsOf(1).length === 1, 'the warm-up reply');
      const statuses: number[] = [];
      const latencies: number[] = [];
      const started = Date.now();
      // Each user's updates come one after another (a platform delivers a chat's updates in order);
      // the 50 users at once.
      await Promise.all(
        Array.from({ length: USERS }, async (_, u) => {
          for (let n = 1; n <= PER_USER; n++) {
            const body = {
              update_id: ++update,
              message: { message_id: n, date: 1700000000, chat: { id: 9000 + u, type: 'private' }, from: { id: 9000 + u, is_bot: false, first_name: 'U' }, text: `m${n}` },
            };
            const t = Date.now();
            const res = await server.client.post(path, body, { headers: { 'x-telegram-bot-api-secret-token': secret } });
            latencies.push(Date.now() - t);
            statuses.push(res.status);
          }
        }),
      );
      const answered = Date.now() - started;
      assert.deepEqual([...new Set(statuses)], [200]);
      await telegram.waitFor(() => telegram.calls.filter((c) => c.status === 200 && c.method === 'sendMessage').length >= USERS * PER_USER + 1, 'every reply', 60_000);
      const delivered = Date.now() - started;
      for (let u = 0; u < USERS; u++) {
        assert.deepEqual(
          telegram.textsOf(9000 + u),
          Array.from({ length: PER_USER }, (_, i) => `got m${i + 1}`),
          `user ${u}`,
        );
      }
      assert.deepEqual(telegram.violations, []);
      latencies.sort((a, b) => a - b);
      const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
      console.log(`[${kind}] ${USERS * PER_USER} updates answered in ${answered} ms (p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${latencies.at(-1)} ms); all replies delivered after ${delivered} ms`);
    });
  });
}
