// Delivered outbox rows (webhook bodies and platform calls: what was said) are deleted by the
// maintenance pass a week after their delivery (docs/limits.md); they used to be kept forever.
// Rows not delivered yet are never pruned.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DELIVERED_OUTBOX_DAYS } from '../../src/conversations/retention.js';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, freshTokens, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { deliveries, hookBot, inject, ManualClock, setCustomChannel, waitForDeliveries } from '../support/webhook-kit.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const DAY = 24 * 3_600_000;

for (const kind of databaseKinds()) {
  describe(`delivered outbox rows are pruned (${kind})`, () => {
    const clock = new ManualClock(Date.now());
    let receiver: WebhookReceiver;
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      receiver = await WebhookReceiver.start();
      server = await startTestServer(kind, {}, { clock: clockFrom(() => clock.ms) });
      tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    /** The clock moves days ahead, past the tokens' expiry. */
    const refresh = async () => void (tenant = await freshTokens(server.client, tenant));
    const delivered = (n: number) => waitForDeliveries(server, tenant, (list) => list.length === n && list.every((d) => d.Status === 'delivered'), `${n} delivered`);

    test(`a row delivered more than ${DELIVERED_OUTBOX_DAYS} days ago goes; a younger one stays`, async () => {
      const user = uid('pruned');
      await chatOk(server, tenant.botToken, { UserId: user });
      // an operator's injection goes to the webhook (the bot's own answers travel in the reply)
      await inject(server, tenant, user, 'first');
      const [old] = await delivered(1);
      clock.advance((DELIVERED_OUTBOX_DAYS - 1) * DAY);
      await refresh();
      await inject(server, tenant, user, 'second');
      const both = await delivered(2);
      clock.advance(2 * DAY);
      await refresh();
      await server.running.maintenance.runOnce();
      const left = await deliveries(server, tenant);
      assert.deepEqual(
        left.map((d) => d.DeliveryId),
        [both[0].DeliveryId],
      );
      assert.notEqual(left[0].DeliveryId, old.DeliveryId);
    });
  });
}
