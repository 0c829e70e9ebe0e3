// api.md section 12 (headers, body, signature) and section 3 rule 4 (PENDING only without a
// webhook), and delivery order per conversation, against a real HTTP receiver on 127.0.0.1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, text, uid } from '../support/chat-kit.js';
import { GUID, ISO_WITH_OFFSET } from '../support/bots.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { deliveries, hookBot, inject, setCustomChannel, waitForDeliveries } from '../support/webhook-kit.js';
import { sleep, WebhookReceiver } from '../support/webhook-receiver.js';

// The snippet of docs/webhooks.md, verbatim: the test checks the docs still carry exactly this,
// then runs it as an integrator would (as plain JavaScript).
const DOCS_SNIPPET = `import crypto from 'node:crypto';

function verifyColloquy(secret, rawBody, header, toleranceSeconds = 300) {
  const { t, v1 } = Object.fromEntries(header.split(',').map((kv) => kv.split('=')));
  if (Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false; // replayed or clock skew
  const expected = crypto.createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex');
  return v1.length === expected.length && crypto.timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}`;

type Verify = (secret: string, rawBody: string, header: string, toleranceSeconds?: number) => boolean;

async function docsVerifier(): Promise<Verify> {
  const docs = fs.readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  assert.ok(docs.includes(`\`\`\`js\n${DOCS_SNIPPET}\n\`\`\``), 'docs/webhooks.md carries the snippet this test runs');
  const source = `${DOCS_SNIPPET}\nexport { verifyColloquy };\n`;
  const module = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  return module.verifyColloquy as Verify;
}

const BODY_FIELDS = ['BotAPIKey', 'Channel', 'DeliveryId', 'Direction', 'Event', 'Reply', 'UserId'];

for (const kind of databaseKinds()) {
  describe(`webhooks: what is sent, and in which order (${kind})`, () => {
    let server: TestServer;
    let receiver: WebhookReceiver;
    let verifyColloquy: Verify;
    before(async () => {
      verifyColloquy = await docsVerifier();
      server = await startTestServer(kind);
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    test('an OPERATOR injection is POSTed once with the secret, the delivery id and a signature the docs snippet verifies; PENDING stays empty', async () => {
      const tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: `${receiver.url}?src=colloquy` });
      const user = uid('hook');
      await chatOk(server, tenant.botToken, { UserId: user, Command: 'RESET' });
      const seen = receiver.calls.length;
      const injected = await inject(server, tenant, user, 'An operator here', 'OPERATOR');
      assert.deepEqual(
        injected.Parts.map((p: any) => [p.Type, p.Text]),
        [[0, 'An operator here']],
      );

      await receiver.waitFor((r) => r.calls.length === seen + 1, 'one call');
      await server.running.dispatcher.runOnce();
      await sleep(700); // more than a dispatcher poll: nothing else is sent
      assert.equal(receiver.calls.length, seen + 1, 'exactly one call: the RESET turn itself is not sent');
      const call = receiver.calls[seen];

      assert.equal(call.method, 'POST');
      assert.equal(call.path, '/hook?src=colloquy');
      assert.equal(call.headers['content-type'], 'application/json');
      assert.equal(call.headers.authorization, tenant.botSecret, 'Authorization is exactly the bot API secret');
      assert.match(call.body.DeliveryId, GUID);
      assert.equal(call.headers['x-colloquy-delivery'], call.body.DeliveryId);
      assert.deepEqual(Object.keys(call.body).sort(), BODY_FIELDS);
      assert.deepEqual(call.body, {
        DeliveryId: call.body.DeliveryId,
        Event: 'message',
        BotAPIKey: tenant.botKey,
        UserId: user,
        Channel: 'custom',
        Direction: 'OPERATOR',
        Reply: { Parts: injected.Parts, UserId: user, Creation: injected.Creation, EnableUserChat: true, ControlType: 0 },
      });
      assert.deepEqual(call.body.Reply, injected, 'Reply is the chat reply the injection echoed');

      const signature = String(call.headers['x-colloquy-signature']);
      assert.match(signature, /^t=\d{10},v1=[0-9a-f]{64}$/);
      assert.ok(Math.abs(Number(/t=(\d+)/.exec(signature)![1]) - Date.now() / 1000) < 30, 't is the time of sending');
      assert.equal(verifyColloquy(tenant.botSecret, call.raw, signature), true, 'the docs snippet accepts the call');
      assert.equal(verifyColloquy(tenant.botSecret, call.raw.replace('An operator here', 'An operator HERE'), signature), false, 'a changed body fails');
      assert.equal(verifyColloquy(`${tenant.botSecret}x`, call.raw, signature), false, 'another secret fails');
      assert.equal(
        verifyColloquy(
          tenant.botSecret,
          call.raw,
          signature.replace(/t=(\d+)/, (_m, t) => `t=${Number(t) - 1}`),
        ),
        false,
        'another t fails',
      );

      const list = await deliveries(server, tenant);
      assert.equal(list.length, 1);
      assert.deepEqual(
        { ...list[0], CreatedAt: null, DeliveredAt: null },
        {
          DeliveryId: call.body.DeliveryId,
          Event: 'message',
          UserId: user,
          Status: 'delivered',
          Attempts: 1,
          LastStatusCode: 200,
          LastError: null,
          CreatedAt: null,
          DeliveredAt: null,
        },
      );
      assert.match(list[0].CreatedAt, ISO_WITH_OFFSET);
      assert.match(list[0].DeliveredAt, ISO_WITH_OFFSET);

      const pending = await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, [], 'a message the webhook took is not queued for PENDING too');
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(
        ready.Parts.map((p: any) => p.Text),
        ['Hi there', 'An operator here'],
        'it is in the history',
      );
    });

    test('the webhook Reply carries the EnableUserChat of the interaction the conversation is at, as the echoed chat reply does', async () => {
      const bot = botFile([{ name: 'Start', enableUserChat: false, actions: [text('Pick one')] }]);
      const tenant = await createTenant(server.client, bot);
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
      const user = uid('nochat');
      assert.equal((await chatOk(server, tenant.botToken, { UserId: user })).EnableUserChat, false);
      const injected = await inject(server, tenant, user, 'From the bot', 'BOT');
      assert.equal(injected.EnableUserChat, false);
      await receiver.waitFor((r) => r.calls.some((c) => c.body?.UserId === user), 'the injection');
      const call = receiver.calls.find((c) => c.body?.UserId === user)!;
      assert.equal(call.body.Direction, 'BOT');
      assert.deepEqual(call.body.Reply, injected);
    });

    test('without a webhook URL an injection goes to the PENDING queue, once, and nothing is sent', async () => {
      const tenant = await createTenant(server.client, hookBot());
      const user = uid('queue');
      await chatOk(server, tenant.botToken, { UserId: user });
      const seen = receiver.calls.length;
      const first = await inject(server, tenant, user, 'Queued one', 'OPERATOR');
      const second = await inject(server, tenant, user, 'Queued two', 'BOT');
      const pending = await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, [...first.Parts, ...second.Parts]);
      assert.deepEqual((await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING' })).Parts, [], 'marked delivered');
      assert.deepEqual(await deliveries(server, tenant), []);
      await sleep(600);
      assert.equal(receiver.calls.length, seen);
    });

    test('10 injections in a row arrive in order at a slow receiver; two conversations both arrive, each in order', async () => {
      const tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
      receiver.delayMs = () => Math.floor(Math.random() * 60);
      try {
        const a = uid('order-a');
        const b = uid('order-b');
        await chatOk(server, tenant.botToken, { UserId: a });
        await chatOk(server, tenant.botToken, { UserId: b });
        const seen = receiver.calls.length;
        for (let i = 1; i <= 10; i++) await inject(server, tenant, a, `a${i}`, i % 2 === 0 ? 'BOT' : 'OPERATOR');
        await receiver.waitFor((r) => r.calls.length >= seen + 10, '10 calls');
        const ofA = receiver.calls.slice(seen).filter((c) => c.body.UserId === a);
        assert.deepEqual(
          ofA.map((c) => c.body.Reply.Parts[0].Text),
          ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10'],
        );
        assert.deepEqual(
          ofA.map((c) => c.body.Direction),
          ['OPERATOR', 'BOT', 'OPERATOR', 'BOT', 'OPERATOR', 'BOT', 'OPERATOR', 'BOT', 'OPERATOR', 'BOT'],
        );

        // Two conversations injected side by side (concurrently): both complete, each in order.
        const seenBoth = receiver.calls.length;
        const send = async (user: string, prefix: string) => {
          for (let i = 1; i <= 6; i++) await inject(server, tenant, user, `${prefix}${i}`);
        };
        await Promise.all([send(a, 'x'), send(b, 'y')]);
        await receiver.waitFor((r) => r.calls.length >= seenBoth + 12, '12 calls');
        await sleep(300);
        const later = receiver.calls.slice(seenBoth);
        assert.equal(later.length, 12, 'each delivery once');
        assert.deepEqual(
          later.filter((c) => c.body.UserId === a).map((c) => c.body.Reply.Parts[0].Text),
          ['x1', 'x2', 'x3', 'x4', 'x5', 'x6'],
        );
        assert.deepEqual(
          later.filter((c) => c.body.UserId === b).map((c) => c.body.Reply.Parts[0].Text),
          ['y1', 'y2', 'y3', 'y4', 'y5', 'y6'],
        );

        // The list, newest first, is the arrival order reversed per conversation, all delivered once.
        const list = await waitForDeliveries(server, tenant, (l) => l.length === 22 && l.every((d) => d.Status === 'delivered'), '22 delivered');
        assert.deepEqual(
          list.map((d) => d.Attempts),
          new Array(22).fill(1),
        );
        assert.deepEqual(
          list
            .filter((d) => d.UserId === a)
            .map((d) => d.DeliveryId)
            .reverse(),
          receiver.calls
            .slice(seen)
            .filter((c) => c.body.UserId === a)
            .map((c) => c.body.DeliveryId),
        );
      } finally {
        receiver.delayMs = 0;
      }
    });

    test('a receiver that never answers holds up neither chat turns nor the deliveries of other bots', async () => {
      const dead = await WebhookReceiver.start();
      dead.hang = true;
      try {
        const stuck = await createTenant(server.client, hookBot());
        const healthy = await createTenant(server.client, hookBot());
        await setCustomChannel(server, stuck, { webhookUrl: dead.url });
        await setCustomChannel(server, healthy, { webhookUrl: receiver.url });
        const [s, h] = [uid('stuck'), uid('healthy')];
        await chatOk(server, stuck.botToken, { UserId: s });
        await chatOk(server, healthy.botToken, { UserId: h });
        await inject(server, stuck, s, 'into the void');
        await dead.waitFor((r) => r.calls.length === 1, 'the hanging call'); // now in flight for up to 10 s
        // An order of events, not a stopwatch: the chat turn is answered and the other bot's
        // delivery arrives while the hanging attempt is still in flight (still pending with no
        // attempt counted). Had either waited for the hang, the attempt would have ended first.
        assert.deepEqual(
          (await chatOk(server, stuck.botToken, { UserId: s, Text: 'hello' })).Parts.map((p: any) => p.Text),
          ['Hello!', 'How are you?'],
        );
        await inject(server, healthy, h, 'on time');
        await receiver.waitFor((r) => r.calls.some((c) => c.body?.UserId === h), 'the healthy delivery', 5000);
        const [row] = await deliveries(server, stuck);
        assert.deepEqual([row.Status, row.Attempts], ['pending', 0], 'the hanging attempt is still in flight');
        assert.equal(dead.calls.length, 1, 'no second attempt was started');
      } finally {
        await dead.close();
      }
    });

    test('concurrent injections on one conversation arrive in the order of the stored history', async () => {
      const tenant = await createTenant(server.client, hookBot());
      await setCustomChannel(server, tenant, { webhookUrl: receiver.url });
      receiver.delayMs = () => Math.floor(Math.random() * 30);
      try {
        const user = uid('burst');
        await chatOk(server, tenant.botToken, { UserId: user });
        await Promise.all(Array.from({ length: 10 }, (_, i) => inject(server, tenant, user, `c${i}`)));
        const injectedAt = Date.now();
        await receiver.waitFor((r) => r.calls.filter((c) => c.body.UserId === user).length >= 10, '10 calls');
        // One after another, but not one per dispatcher poll (500 ms): a burst drains at once.
        assert.ok(Date.now() - injectedAt < 2000, `10 deliveries took ${Date.now() - injectedAt} ms`);
        const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
        const history = ready.Parts.slice(1).map((p: any) => p.Text);
        assert.equal(new Set(history).size, 10);
        assert.deepEqual(
          receiver.calls.filter((c) => c.body.UserId === user).map((c) => c.body.Reply.Parts[0].Text),
          history,
        );
      } finally {
        receiver.delayMs = 0;
      }
    });
  });
}
