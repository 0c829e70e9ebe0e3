// api.md section 12: webhook URLs on private addresses are refused at delivery time unless
// COLLOQUY_ALLOW_PRIVATE_NETWORK=1; section 8: forgetting a conversation drops its pending deliveries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { deliveries, hookBot, inject, ManualClock, setCustomChannel, waitForDeliveries } from '../support/webhook-kit.js';
import { sleep, WebhookReceiver } from '../support/webhook-receiver.js';

const row = (d: any) => [d.UserId, d.Status, d.Attempts, d.LastStatusCode, d.LastError];

for (const kind of databaseKinds()) {
  describe(`webhooks: private network guard and forgetting (${kind})`, () => {
    const clock = new ManualClock(Date.now());
    let open: TestServer; // COLLOQUY_ALLOW_PRIVATE_NETWORK=1 (the harness default), manual clock
    let guarded: TestServer; // COLLOQUY_ALLOW_PRIVATE_NETWORK=0
    let receiver: WebhookReceiver;
    before(async () => {
      open = await startTestServer(kind, {}, { clock: clockFrom(() => clock.ms) });
      guarded = await startTestServer(kind, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '0' });
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      await open.close();
      await guarded.close();
      await receiver.close();
    });

    test('with COLLOQUY_ALLOW_PRIVATE_NETWORK=0 a loopback webhook URL is refused: LastError set, the receiver sees nothing', async () => {
      const port = new URL(receiver.url).port;
      for (const url of [receiver.url, `http://localhost:${port}/hook`, `http://[::ffff:127.0.0.1]:${port}/hook`]) {
        const tenant = await createTenant(guarded.client, hookBot());
        await setCustomChannel(guarded, tenant, { webhookUrl: url });
        const user = uid('private');
        await chatOk(guarded, tenant.botToken, { UserId: user });
        await inject(guarded, tenant, user, 'not for loopback');
        const list = await waitForDeliveries(guarded, tenant, (l) => l[0]?.Attempts === 1, `an attempt at ${url}`);
        assert.deepEqual(list.map(row), [[user, 'pending', 1, null, 'connection failed or address refused']], url);
      }
      await sleep(700);
      assert.equal(receiver.calls.length, 0, 'nothing reached the receiver');

      // The receiver is reachable: the server that allows private networks delivers to the same URL.
      const tenant = await createTenant(open.client, hookBot());
      await setCustomChannel(open, tenant, { webhookUrl: receiver.url });
      const user = uid('allowed');
      await chatOk(open, tenant.botToken, { UserId: user });
      await inject(open, tenant, user, 'fine here');
      await receiver.waitForAccepted(1);
      assert.equal(receiver.calls[0].body.Reply.Parts[0].Text, 'fine here');
      assert.deepEqual((await waitForDeliveries(open, tenant, (l) => l[0]?.Status === 'delivered', 'delivered')).map(row), [[user, 'delivered', 1, 200, null]]);
    });

    test('while taken over, what the user writes is forwarded to the webhook (rule 7) and not queued for PENDING', async () => {
      const tenant = await createTenant(open.client, hookBot());
      await setCustomChannel(open, tenant, { webhookUrl: receiver.url });
      const user = uid('taken');
      await chatOk(open, tenant.botToken, { UserId: user });
      const takeover = await open.client.post('/custom/state', { userid: user, state: 'takeover', operator: 'ann@example.org' }, { token: tenant.botToken });
      assert.equal(takeover.status, 200);
      const silent = await chatOk(open, tenant.botToken, { UserId: user, Text: 'is anyone there?' });
      assert.deepEqual([silent.Parts, silent.ControlType], [[], 2]);
      const mine = () => receiver.accepted.filter((c) => c.body.UserId === user);
      await receiver.waitFor(() => mine().length >= 2, 'the state change and the forwarded message');
      const forwarded = mine().map((c) => [c.body.Event, c.body.Direction, c.body.Reply.Parts?.[0]?.Text ?? c.body.Reply.State]);
      assert.deepEqual(forwarded, [
        ['state', 'BOT', 2],
        ['message', 'USER', 'is anyone there?'],
      ]);
      const pending = await chatOk(open, tenant.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, []);
    });

    test('forget: the pending deliveries of that conversation are gone, the others are delivered', async () => {
      const tenant = await createTenant(open.client, hookBot());
      await setCustomChannel(open, tenant, { webhookUrl: receiver.url });
      const [a, b] = [uid('forget-a'), uid('forget-b')];
      await chatOk(open, tenant.botToken, { UserId: a });
      await chatOk(open, tenant.botToken, { UserId: b });
      const seen = receiver.calls.length;
      receiver.failNext = 1000;
      for (const said of ['a1', 'a2', 'a3']) await inject(open, tenant, a, said);
      for (const said of ['b1', 'b2']) await inject(open, tenant, b, said);
      const before = await waitForDeliveries(open, tenant, (l) => l.length === 5 && l.filter((d) => d.Attempts === 1).length === 2, 'the first attempts');
      assert.deepEqual(before.map(row), [
        [b, 'pending', 0, null, null],
        [b, 'pending', 1, 500, 'HTTP 500'],
        [a, 'pending', 0, null, null],
        [a, 'pending', 0, null, null],
        [a, 'pending', 1, 500, 'HTTP 500'],
      ]);
      const idsOfB = before.filter((d) => d.UserId === b).map((d) => d.DeliveryId);

      const forgotten = await open.client.post('/custom/state', { userid: a, state: 'forget' }, { token: tenant.botToken });
      assert.equal(forgotten.status, 202, forgotten.text);
      assert.deepEqual(forgotten.body, { UserId: a, State: 'forgetting' });
      const afterwards = await waitForDeliveries(open, tenant, (l) => l.length === 2, 'the rows of a gone', 5000);
      assert.deepEqual(afterwards.map(row), before.filter((d) => d.UserId === b).map(row), 'only b is left, as it was');
      assert.deepEqual(
        afterwards.map((d) => d.DeliveryId),
        idsOfB,
      );
      assert.equal((await open.client.get(`/custom/state?userid=${a}`, { token: tenant.botToken })).status, 404);

      receiver.failNext = 0;
      clock.advance(1000);
      await open.running.dispatcher.runOnce();
      await receiver.waitFor((r) => r.calls.slice(seen).filter((c) => c.status === 200).length >= 2, 'the two of b');
      await sleep(700);
      const later = receiver.calls.slice(seen);
      assert.equal(later.length, 4, 'nothing of a after the forget');
      assert.deepEqual(
        later
          .slice(0, 2)
          .map((c) => `${c.status} ${c.body.Reply.Parts[0].Text}`)
          .sort(),
        ['500 a1', '500 b1'],
        'before the forget: the two heads failed once',
      );
      assert.deepEqual(
        later.slice(2).map((c) => [c.status, c.body.UserId, c.body.Reply.Parts[0].Text]),
        [
          [200, b, 'b1'],
          [200, b, 'b2'],
        ],
      );
      assert.deepEqual((await deliveries(open, tenant)).map(row), [
        [b, 'delivered', 1, 200, null],
        [b, 'delivered', 2, 200, null],
      ]);
    });
  });
}
