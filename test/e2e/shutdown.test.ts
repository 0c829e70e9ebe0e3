// SIGTERM: the node stops taking new work, finishes the turns it has started, then exits 0.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { createTestDatabase, databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { startNode } from '../support/node-process.js';

const slowBot = (url: string) => ({
  format: 'colloquy/bot@1',
  name: 'Slow',
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        { name: 'Start', start: true, actions: [{ type: 'text', text: 'hello' }] },
        {
          name: 'Ask',
          fallback: true,
          actions: [
            { type: 'callApi', method: 'GET', url, variable: 'answer' },
            { type: 'text', text: 'the service said {{answer}}' },
          ],
        },
      ],
    },
  ],
});

for (const kind of databaseKinds()) {
  describe(`graceful shutdown (${kind})`, () => {
    test('in-flight turns finish and are stored; the process exits 0', async () => {
      // A service that answers after 800 ms: turns are in flight when SIGTERM arrives.
      let called = 0;
      let allCalled: () => void = () => undefined;
      const everyTurnCalled = new Promise<void>((resolve) => (allCalled = resolve));
      const service = http.createServer((_req, res) => {
        called += 1;
        if (called === 5) allCalled();
        setTimeout(() => res.end('slowly'), 800);
      });
      await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
      const database = await createTestDatabase(kind);
      const env = { COLLOQUY_DATA_DIR: database.dataDir, ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}) };
      const node = await startNode(env);
      try {
        const tenant = await createTenant(node.client, slowBot(`http://127.0.0.1:${(service.address() as AddressInfo).port}/`));
        for (let i = 0; i < 5; i++) await node.client.post('/custom/chat', { UserId: `s${i}` }, { token: tenant.botToken });
        const inFlight = Array.from({ length: 5 }, (_, i) => node.client.post('/custom/chat', { UserId: `s${i}`, Text: 'question' }, { token: tenant.botToken }));
        // SIGTERM once every turn is in flight (its call made), not after a guessed 300 ms: on a
        // loaded machine the fifth request had not reached the node yet and found it closed
        await everyTurnCalled;
        const exit = node.stop();
        const answers = await Promise.all(inFlight);
        assert.deepEqual(
          answers.map((a) => [a.status, a.body.Parts?.[0]?.Text]),
          Array.from({ length: 5 }, () => [200, 'the service said slowly']),
        );
        assert.equal(await exit, 0);
        assert.match(node.output(), /SIGTERM received/);

        // What was acknowledged is stored: a new node on the same database has every answer.
        const again = await startNode(env);
        try {
          for (let i = 0; i < 5; i++) {
            const history = await again.client.post('/custom/chat', { UserId: `s${i}`, Command: 'READY' }, { token: tenant.botToken });
            assert.deepEqual(
              history.body.Parts.map((p: { Text: string }) => p.Text),
              ['hello', 'question', 'the service said slowly'],
            );
          }
        } finally {
          await again.stop();
        }
      } finally {
        await node.kill().catch(() => undefined);
        service.closeAllConnections();
        await new Promise((resolve) => service.close(resolve));
        await database.drop();
      }
    });
  });
}
