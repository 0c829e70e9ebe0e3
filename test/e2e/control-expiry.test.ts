// Issue 12: every control-state change goes through the one state machine inside a conversation
// turn, so the changes that nobody requested over HTTP — an `auto` share link expiring (hand-back)
// and a ban whose last day ended — take the conversation's lock and emit the `state` webhook
// (api.md section 12) like a takeover or a ban does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { hookBot, setCustomChannel } from '../support/webhook-kit.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const HOUR = 3_600_000;

for (const kind of databaseKinds()) {
  describe(`control changes by expiry emit the state webhook (${kind})`, () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    let server: TestServer;
    let tenant: Tenant;
    let receiver: WebhookReceiver;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      receiver = await WebhookReceiver.start();
      tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    /** State webhooks of the user, once per DeliveryId (delivery is at least once). */
    const statesOf = (user: string) => {
      const seen = new Map<string, unknown>();
      for (const c of receiver.calls) if (c.body?.UserId === user && c.body?.Event === 'state') seen.set(c.body.DeliveryId, c.body.Reply);
      return [...seen.values()];
    };
    const stateOf = async (user: string) => (await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken })).body;
    async function deliverAll(count: number, user: string) {
      for (let i = 0; i < 50 && statesOf(user).length < count; i++) {
        await server.running.dispatcher.runOnce();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    test('an auto link that expires hands the conversation back: State 0 webhook after the State 2 one', async () => {
      const user = uid('auto');
      await chatOk(server, tenant.botToken, { UserId: user });
      const share = await server.client.post('/custom/share', { UserId: user, Mode: 'auto', Hours: 1 }, { token: tenant.botToken });
      assert.equal(share.status, 200, share.text);
      assert.equal((await server.client.get(new URL(share.body.Url).pathname)).status, 200);
      assert.equal((await stateOf(user)).State, 2);
      await deliverAll(1, user); // the takeover's webhook goes out before the clock jumps
      const start = now;
      try {
        now = start + HOUR;
        await server.running.maintenance.runOnce();
        assert.equal((await stateOf(user)).State, 0);
        await deliverAll(2, user);
        assert.deepEqual(statesOf(user), [
          { UserId: user, State: 2, Operator: '*', BanExpiration: null, BanMessage: null },
          { UserId: user, State: 0, Operator: null, BanExpiration: null, BanMessage: null },
        ]);
      } finally {
        now = start;
      }
    });

    test('a ban whose last day ended is lifted by maintenance: State 0 webhook after the State 3 one', async () => {
      const user = uid('ban');
      await chatOk(server, tenant.botToken, { UserId: user });
      const banned = await server.client.post('/custom/state', { userid: user, state: 'ban', days: 1, message: 'Bye' }, { token: tenant.botToken });
      assert.equal(banned.status, 200, banned.text);
      await deliverAll(1, user);
      const start = now;
      try {
        now = Date.parse('2026-11-24T00:00:00Z');
        await server.running.maintenance.runOnce();
        const bot = await server.running.store.bots.byApiKey(tenant.botKey);
        assert.equal((await server.running.store.conversations.byUser(bot!.id, user))!.controlState, 0);
        await deliverAll(2, user);
        assert.deepEqual(statesOf(user), [
          { UserId: user, State: 3, Operator: null, BanExpiration: '2026-11-23', BanMessage: 'Bye' },
          { UserId: user, State: 0, Operator: null, BanExpiration: null, BanMessage: null },
        ]);
      } finally {
        now = start;
      }
    });
  });
}
