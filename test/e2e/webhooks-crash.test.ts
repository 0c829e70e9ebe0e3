// api.md section 12: "a crash or restart loses nothing". A real server process (`colloquy serve`)
// makes deliveries that fail against a receiver that is down, is killed with SIGKILL, and a new
// process on the same database delivers every one of them once the receiver is up.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { chatOk, uid } from '../support/chat-kit.js';
import { cliEnv, freePort, startCli, waitForOutput } from '../support/cli.js';
import { Client } from '../support/client.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { ADMIN_TOKEN } from '../support/server.js';
import { hookBot, inject, setCustomChannel, waitForDeliveries } from '../support/webhook-kit.js';
import { sleep, WebhookReceiver } from '../support/webhook-receiver.js';

interface ServerProcess {
  child: ChildProcess;
  client: Client;
  exited: Promise<number | string | null>;
}

async function serve(database: TestDatabase): Promise<ServerProcess> {
  const port = await freePort();
  const child = startCli(
    ['serve'],
    cliEnv(database, {
      PORT: String(port),
      HOST: '127.0.0.1',
      COLLOQUY_DEMO: '0',
      COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
      COLLOQUY_ALLOW_PRIVATE_NETWORK: '1',
      COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    }),
  );
  const exited = new Promise<number | string | null>((resolve) => child.on('close', (code, signal) => resolve(signal ?? code)));
  await waitForOutput(child, /listening on /);
  return { child, client: new Client(`http://127.0.0.1:${port}`), exited };
}

for (const kind of databaseKinds()) {
  describe(`webhooks: a killed server loses no delivery (${kind})`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    after(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => undefined);
    });

    test('deliveries pending at SIGKILL are all delivered by the next process, in order per conversation', async () => {
      const database = await createTestDatabase(kind);
      cleanup.push(() => database.drop());
      const receiverPort = await freePort(); // nobody listens there yet: connections are refused
      const hookUrl = `http://127.0.0.1:${receiverPort}/hook`;

      const first = await serve(database);
      cleanup.push(async () => first.child.exitCode === null && first.child.signalCode === null && first.child.kill('SIGKILL'));
      const server = { client: first.client } as TestServer;
      const tenant = await createTenant(first.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: hookUrl });
      const [a, b] = [uid('crash-a'), uid('crash-b')];
      await chatOk(server, tenant.botToken, { UserId: a });
      await chatOk(server, tenant.botToken, { UserId: b });
      for (const said of ['a1', 'a2', 'a3']) await inject(server, tenant, a, said, 'OPERATOR');
      for (const said of ['b1', 'b2']) await inject(server, tenant, b, said, 'BOT');
      // Kill as soon as both heads failed once (well before 5 failures would pause the endpoint).
      const pending = await waitForDeliveries(server, tenant, (l) => l.length === 5 && l.filter((d) => d.Attempts >= 1).length === 2, 'two refused attempts');
      first.child.kill('SIGKILL');
      assert.equal(await first.exited, 'SIGKILL');
      assert.deepEqual(
        pending.map((d) => [d.UserId, d.Status, d.LastError]),
        [
          [b, 'pending', null],
          [b, 'pending', 'connection failed or address refused'],
          [a, 'pending', null],
          [a, 'pending', null],
          [a, 'pending', 'connection failed or address refused'],
        ],
      );
      const ids = pending.map((d) => d.DeliveryId).reverse(); // a1 a2 a3 b1 b2

      const receiver = await WebhookReceiver.start(receiverPort);
      cleanup.push(() => receiver.close());
      await sleep(500);
      assert.equal(receiver.calls.length, 0, 'nobody delivers while no server runs');
      const second = await serve(database);
      cleanup.push(async () => {
        second.child.kill('SIGTERM');
        await second.exited;
      });
      await receiver.waitFor((r) => ids.every((id) => r.acceptedIds.includes(id)), 'all five delivered', 30_000);

      const arrived = receiver.accepted.map((c) => c.body.DeliveryId);
      assert.deepEqual([...new Set(arrived)].sort(), [...ids].sort(), 'each DeliveryId at least once, nothing else');
      const order = (user: string) => [...new Set(receiver.accepted.filter((c) => c.body.UserId === user).map((c) => c.body.Reply.Parts[0].Text))];
      assert.deepEqual(order(a), ['a1', 'a2', 'a3']);
      assert.deepEqual(order(b), ['b1', 'b2']);
      for (const c of receiver.calls) {
        assert.equal(c.headers.authorization, tenant.botSecret);
        assert.equal(c.headers['x-colloquy-delivery'], c.body.DeliveryId);
        assert.equal(c.body.Direction, c.body.UserId === a ? 'OPERATOR' : 'BOT');
      }
      const after = await waitForDeliveries({ client: second.client }, tenant, (l) => l.every((d) => d.Status === 'delivered'), 'all delivered');
      assert.deepEqual(after.map((d) => d.DeliveryId).reverse(), ids);
      assert.deepEqual(
        after.map((d) => [d.Status, d.LastStatusCode]),
        new Array(5).fill(['delivered', 200]),
      );
      // The conversations themselves survived the kill too: nothing was queued for PENDING.
      const pendingParts = await chatOk({ client: second.client } as TestServer, tenant.botToken, { UserId: a, Command: 'PENDING' });
      assert.deepEqual(pendingParts.Parts, []);
    });
  });
}
