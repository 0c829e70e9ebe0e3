// api.md section 12: retries with exponential backoff (1 s doubling), the 5-minute pause after
// more than 5 consecutive failures, giving up after 24 h, and the retry endpoint. Time is an
// injected clock that only the test moves; `dispatcher.runOnce()` makes the passes (the
// dispatcher's own 500 ms timer runs too and may make an attempt first: the tests wait for the
// deliveries list, not for their own pass).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { deliveries, hookBot, inject, ManualClock, setCustomChannel, waitForDeliveries } from '../support/webhook-kit.js';
import { sleep, WebhookReceiver } from '../support/webhook-receiver.js';

const row = (d: any) => [d.Status, d.Attempts, d.LastStatusCode, d.LastError];

for (const kind of databaseKinds()) {
  describe(`webhooks: retries, pause and the retry endpoint (${kind})`, () => {
    const clock = new ManualClock(Date.now());
    let server: TestServer;
    const receivers: WebhookReceiver[] = [];
    before(async () => {
      server = await startTestServer(kind, {}, { clock: clockFrom(() => clock.ms) });
    });
    after(async () => {
      await server.close();
      for (const r of receivers) await r.close();
    });

    async function hooked(): Promise<{ tenant: Tenant; receiver: WebhookReceiver }> {
      const receiver = await WebhookReceiver.start();
      receivers.push(receiver);
      const tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
      return { tenant, receiver };
    }
    const byId = (list: any[], id: string) => list.find((d) => d.DeliveryId === id);

    /** Moves the clock, makes a pass, and waits until delivery `id` shows `attempts` attempts. */
    async function step(ms: number, tenant: Tenant, id: string, attempts: number): Promise<any[]> {
      clock.advance(ms);
      await server.running.dispatcher.runOnce();
      return waitForDeliveries(server, tenant, (l) => byId(l, id)?.Attempts === attempts, `attempt ${attempts} of ${id}`);
    }
    /** Moves the clock and makes a pass that must attempt nothing. */
    async function idle(ms: number, receiver: WebhookReceiver): Promise<void> {
      const seen = receiver.calls.length;
      clock.advance(ms);
      assert.equal(await server.running.dispatcher.runOnce(), 0, `nothing is due ${ms} ms later`);
      await sleep(50);
      assert.equal(receiver.calls.length, seen, 'no call was made');
    }

    test('a receiver that fails 3 times then recovers gets every message once, after 1 s, 2 s and 4 s, with the same DeliveryId', async () => {
      const { tenant, receiver } = await hooked();
      const user = uid('retry');
      await chatOk(server, tenant.botToken, { UserId: user });
      receiver.failNext = 3;
      for (const said of ['first', 'second', 'third']) await inject(server, tenant, user, said);
      let list = await waitForDeliveries(server, tenant, (l) => l.length === 3 && l[2].Attempts === 1, 'the first attempt');
      const [third, second, first] = list.map((d) => d.DeliveryId);
      assert.deepEqual(
        list.map(row),
        [
          ['pending', 0, null, null],
          ['pending', 0, null, null],
          ['pending', 1, 500, 'HTTP 500'],
        ],
        'the others wait their turn',
      );

      await idle(999, receiver);
      await step(1, tenant, first, 2);
      await idle(1999, receiver);
      await step(1, tenant, first, 3);
      await idle(3999, receiver);
      await step(1, tenant, first, 4);
      await receiver.waitForAccepted(3); // the next two follow without any clock move
      list = await waitForDeliveries(server, tenant, (l) => l.every((d) => d.Status === 'delivered'), 'all delivered');
      assert.deepEqual(
        list.map((d) => [d.DeliveryId, ...row(d)]),
        [
          [third, 'delivered', 1, 200, null],
          [second, 'delivered', 1, 200, null],
          [first, 'delivered', 4, 200, null],
        ],
      );
      assert.deepEqual(
        receiver.calls.map((c) => [c.status, c.body.DeliveryId, c.headers['x-colloquy-delivery']]),
        [
          [500, first, first],
          [500, first, first],
          [500, first, first],
          [200, first, first],
          [200, second, second],
          [200, third, third],
        ],
      );
      assert.equal(new Set(receiver.calls.slice(0, 4).map((c) => c.raw)).size, 1, 'every retry sends the same body');
      assert.deepEqual(
        receiver.accepted.map((c) => c.body.Reply.Parts[0].Text),
        ['first', 'second', 'third'],
      );
      clock.advance(600_000);
      await server.running.dispatcher.runOnce();
      await sleep(600);
      assert.equal(receiver.calls.length, 6, 'nothing is sent again');
    });

    test('after more than 5 consecutive failures the endpoint is paused: no attempt for 5 minutes, for any conversation', async () => {
      const { tenant, receiver } = await hooked();
      const [a, b] = [uid('pause-a'), uid('pause-b')];
      await chatOk(server, tenant.botToken, { UserId: a });
      await chatOk(server, tenant.botToken, { UserId: b });
      receiver.failNext = 1000;
      await inject(server, tenant, a, 'held');
      let list = await waitForDeliveries(server, tenant, (l) => l[0]?.Attempts === 1, 'the first attempt');
      const held = list[0].DeliveryId;
      await step(1000, tenant, held, 2);
      await step(2000, tenant, held, 3);
      await step(4000, tenant, held, 4);
      list = await step(8000, tenant, held, 5);
      assert.deepEqual(row(byId(list, held)), ['pending', 5, 500, 'HTTP 500'], '5 failures: not paused yet');
      list = await step(16000, tenant, held, 6);
      assert.deepEqual(row(byId(list, held)), ['paused', 6, 500, 'HTTP 500'], 'the 6th failure pauses the endpoint');
      assert.equal(receiver.calls.length, 6);

      // A message of another conversation waits for the pause too.
      await inject(server, tenant, b, 'also held');
      list = await deliveries(server, tenant);
      const other = list[0].DeliveryId;
      assert.deepEqual(list.map(row), [
        ['paused', 0, null, null],
        ['paused', 6, 500, 'HTTP 500'],
      ]);
      await idle(32_000, receiver); // the backoff of the 6th failure is over, the pause is not
      await idle(300_000 - 32_000 - 1, receiver);
      await sleep(700); // the dispatcher's own timer passes too: still nothing
      assert.equal(receiver.calls.length, 6);
      assert.deepEqual(
        (await deliveries(server, tenant)).map((d) => d.Status),
        ['paused', 'paused'],
      );

      receiver.failNext = 0;
      await step(1, tenant, held, 7); // exactly 5 minutes after the 6th failure
      await receiver.waitForAccepted(2);
      list = await waitForDeliveries(server, tenant, (l) => l.every((d) => d.Status === 'delivered'), 'both delivered');
      assert.deepEqual(
        list.map((d) => [d.DeliveryId, ...row(d)]),
        [
          [other, 'delivered', 1, 200, null],
          [held, 'delivered', 7, 200, null],
        ],
      );
      assert.deepEqual(receiver.calls.map((c) => c.body.DeliveryId).sort(), [...new Array(7).fill(held), other].sort());
      assert.equal(receiver.calls.length, 8);
    });

    test('POST /bots/{key}/deliveries/{id}/retry sends a delivery again; unknown id 404, another bot 403', async () => {
      const { tenant, receiver } = await hooked();
      const otherHook = await hooked();
      const user = uid('again');
      await chatOk(server, tenant.botToken, { UserId: user });
      await inject(server, tenant, user, 'once more');
      await receiver.waitForAccepted(1);
      const [delivered] = await waitForDeliveries(server, tenant, (l) => l[0]?.Status === 'delivered', 'delivered');
      const id = delivered.DeliveryId;
      const path = `/bots/${tenant.botKey}/deliveries/${id}/retry`;

      const byAccount = await server.client.post(path, undefined, { token: tenant.accountToken });
      assert.equal(byAccount.status, 200, byAccount.text);
      assert.deepEqual(byAccount.body, { DeliveryId: id, Status: 'pending' });
      await receiver.waitForAccepted(2);
      const byBot = await server.client.post(path, undefined, { token: tenant.botToken });
      assert.equal(byBot.status, 200, byBot.text);
      await receiver.waitForAccepted(3);
      const list = await waitForDeliveries(server, tenant, (l) => l[0].Status === 'delivered' && l[0].Attempts === 3, '3 attempts');
      assert.deepEqual(
        list.map((d) => [d.DeliveryId, ...row(d)]),
        [[id, 'delivered', 3, 200, null]],
      );
      assert.deepEqual(
        receiver.calls.map((c) => c.headers['x-colloquy-delivery']),
        [id, id, id],
      );
      assert.equal(new Set(receiver.calls.map((c) => c.raw)).size, 1);

      const unknown = await server.client.post(`/bots/${tenant.botKey}/deliveries/0b7e4d1c-1111-4222-8333-944455556666/retry`, undefined, { token: tenant.accountToken });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'DELIVERY_NOT_FOUND');
      // another bot's delivery id is unknown to this bot
      const { tenant: other } = otherHook;
      const otherUser = uid('other');
      await chatOk(server, other.botToken, { UserId: otherUser });
      await inject(server, other, otherUser, 'elsewhere');
      const [otherDelivery] = await waitForDeliveries(server, other, (l) => l.length === 1, 'the other delivery');
      const crossed = await server.client.post(`/bots/${tenant.botKey}/deliveries/${otherDelivery.DeliveryId}/retry`, undefined, { token: tenant.accountToken });
      assert.equal(crossed.status, 404);
      assert.equal(crossed.body.Code, 'DELIVERY_NOT_FOUND');

      for (const token of [other.botToken, other.accountToken]) {
        const retry = await server.client.post(path, undefined, { token });
        assert.equal(retry.status, 403, retry.text);
        assert.equal(retry.body.Code, 'TOKEN_SCOPE');
        const listing = await server.client.get(`/bots/${tenant.botKey}/deliveries`, { token });
        assert.equal(listing.status, 403);
        assert.equal(listing.body.Code, 'TOKEN_SCOPE');
      }
      await sleep(600);
      assert.equal(receiver.calls.length, 3, 'refused retries sent nothing');
    });

    test('a delivery still failing 24 h after it was made is given up ("failed"); a retry then delivers it', async () => {
      const { tenant, receiver } = await hooked();
      const user = uid('late');
      await chatOk(server, tenant.botToken, { UserId: user });
      receiver.failNext = 1000;
      await inject(server, tenant, user, 'too late?');
      const [first] = await waitForDeliveries(server, tenant, (l) => l[0]?.Attempts === 1, 'the first attempt');
      // The day's tokens expire on the way: each step takes a fresh account token.
      const fresh = async () => ({ ...tenant, accountToken: await accountToken(server.client, tenant.accountKey) });
      clock.advance(24 * 3_600_000 - 1);
      await server.running.dispatcher.runOnce();
      let list = await waitForDeliveries(server, await fresh(), (l) => l[0].Attempts === 2, 'the second attempt');
      assert.deepEqual(row(list[0]), ['pending', 2, 500, 'HTTP 500'], 'still retried just before 24 h');
      clock.advance(2000);
      await server.running.dispatcher.runOnce();
      list = await waitForDeliveries(server, await fresh(), (l) => l[0].Attempts === 3, 'the third attempt');
      assert.deepEqual(row(list[0]), ['failed', 3, 500, 'HTTP 500'], 'given up 24 h after it was made');
      await idle(3_600_000, receiver);

      const later = await fresh();
      receiver.failNext = 0;
      const retry = await server.client.post(`/bots/${tenant.botKey}/deliveries/${first.DeliveryId}/retry`, undefined, { token: later.accountToken });
      assert.equal(retry.status, 200, retry.text);
      await receiver.waitForAccepted(1);
      list = await waitForDeliveries(server, later, (l) => l[0].Status === 'delivered', 'delivered');
      assert.deepEqual(row(list[0]), ['delivered', 4, 200, null]);
      assert.equal(receiver.calls.length, 4);
    });
  });
}
