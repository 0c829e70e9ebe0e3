// api.md section 3, rules 3 (READY) and 4 (PENDING).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buttonCommand, chat, chatOk, NOT_UNDERSTOOD, ORDER_QUESTION, summary, uid, userPart, WELCOME } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const WRONG: [number, string] = [0, 'That does not look like an order number.'];

for (const kind of databaseKinds()) {
  describe(`chat: READY and PENDING (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
    });
    after(() => server.close());

    /** welcome, click "Track an order", a wrong number: returns every reply's parts in order. */
    async function someHistory(user: string) {
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const asked = await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Track an order') });
      const wrong = await chatOk(server, support.botToken, { UserId: user, Text: 'abc' });
      return { welcome: welcome.Parts, asked: asked.Parts, wrong: wrong.Parts };
    }

    test('rule 3: READY returns the whole history oldest first, user texts and clicks as Type 19 parts', async () => {
      const user = uid('ready');
      const h = await someHistory(user);
      assert.deepEqual(summary(h.wrong), [WRONG, ORDER_QUESTION]);
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(ready.Parts, [...h.welcome, userPart('Track an order', 'Main', 'Welcome'), ...h.asked, userPart('abc', 'Orders', 'Ask Number'), ...h.wrong]);
      // bot parts come back exactly as they were sent, children and button payloads included
      assert.equal(ready.Parts[1].Parts.length, 4);
      assert.equal(ready.Parts[1].Parts[0].Command, '6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e01');
      assert.equal(ready.UserId, user);
      assert.equal(ready.EnableUserChat, true);
      assert.equal(ready.ControlType, 0);
    });

    test('rule 3: READY does not reset, does not move and is not stored again', async () => {
      const user = uid('ready');
      await someHistory(user);
      const first = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      const second = await chatOk(server, support.botToken, { UserId: user, Command: 'ready' });
      assert.deepEqual(second.Parts, first.Parts);
      assert.equal(first.Parts.length, 7);
      const position = await server.client.get(`/custom/position?userid=${user}`, { token: support.botToken });
      assert.deepEqual(position.body, { UserId: user, BehaviourName: 'Orders', InteractionName: 'Ask Number' });
      // the input still waits: READY did not clear it
      const answer = await chatOk(server, support.botToken, { UserId: user, Text: '123456' });
      assert.deepEqual(summary(answer.Parts), [
        [0, 'Order 123456 is on its way.'],
        [6, "May we e-mail you updates? Type your address, or 'no'."],
      ]);
      const third = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.equal(third.Parts.length, 10);
      assert.deepEqual(third.Parts.slice(0, 7), first.Parts);
    });

    test('rule 3: HistoryLimit returns only the last N parts', async () => {
      const user = uid('ready');
      const h = await someHistory(user);
      const all = [...h.welcome, userPart('Track an order', 'Main', 'Welcome'), ...h.asked, userPart('abc', 'Orders', 'Ask Number'), ...h.wrong];
      for (const limit of [1, 2, 3, 5, 7, 100]) {
        const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY', HistoryLimit: limit });
        assert.deepEqual(ready.Parts, all.slice(Math.max(0, all.length - limit)), `HistoryLimit ${limit}`);
      }
      const none = await chatOk(server, support.botToken, { UserId: user, Command: 'READY', HistoryLimit: 0 });
      assert.deepEqual(none.Parts, []);
      const bad = await chat(server, support.botToken, { UserId: user, Command: 'READY', HistoryLimit: -1 });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Code, 'INVALID_REQUEST');
    });

    test('rule 3: READY for an unknown UserId acts as RESET', async () => {
      const user = uid('ready');
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(summary(ready.Parts), WELCOME);
      assert.equal(ready.UserId, user);
      assert.equal(ready.EnableUserChat, false);
      const position = await server.client.get(`/custom/position?userid=${user}`, { token: support.botToken });
      assert.equal(position.status, 200);
      assert.deepEqual(position.body, { UserId: user, BehaviourName: 'Main', InteractionName: 'Welcome' });
      // what the RESET said is the history now
      const again = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(again.Parts, ready.Parts);
    });

    test('rule 4: PENDING with nothing queued returns empty Parts and stores nothing', async () => {
      const user = uid('pending');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const pending = await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, []);
      assert.equal(pending.UserId, user);
      assert.equal(pending.ControlType, 0);
      assert.equal(pending.EnableUserChat, false);
      assert.ok(Date.parse(pending.Creation) >= Date.parse(welcome.Creation), 'Creation is the time of this reply');
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(ready.Parts, welcome.Parts);
    });

    test('rule 4: PENDING returns injected messages once, oldest first, and marks them delivered', async () => {
      const user = uid('pending');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const bot = await chatOk(server, support.botToken, { UserId: user, Text: 'From the bot' }, { DIRECTION: 'BOT' });
      const operator = await chatOk(server, support.botToken, { UserId: user, Text: 'From Ann' }, { DIRECTION: 'OPERATOR' });
      // a normal user turn in between is answered directly, never queued
      const miss = await chatOk(server, support.botToken, { UserId: user, Text: 'zzz' });
      assert.deepEqual(summary(miss.Parts), [NOT_UNDERSTOOD]);

      const pending = await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, [...bot.Parts, ...operator.Parts]);
      assert.deepEqual(summary(pending.Parts), [
        [0, 'From the bot'],
        [0, 'From Ann'],
      ]);
      const again = await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(again.Parts, []);
      // the injections are in the history once; PENDING added nothing
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(ready.Parts, [...welcome.Parts, ...bot.Parts, ...operator.Parts, userPart('zzz', 'Main', 'Welcome'), ...miss.Parts]);
    });

    test('rule 4: PENDING for an unknown UserId returns empty Parts and creates nothing', async () => {
      const user = uid('pending');
      const pending = await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, []);
      assert.equal(pending.UserId, user);
      assert.equal(pending.ControlType, 0);
      const position = await server.client.get(`/custom/position?userid=${user}`, { token: support.botToken });
      assert.equal(position.status, 404);
      assert.equal(position.body.Code, 'CONVERSATION_NOT_FOUND');
      const values = await server.client.get(`/custom/values?userid=${user}`, { token: support.botToken });
      assert.equal(values.status, 404);
    });

    test('rule 4: with a custom webhook URL injections are not queued for PENDING', async () => {
      const hooked = await createTenant(server.client);
      const settings = await server.client.patch(`/bots/${hooked.botKey}/settings`, { channels: { custom: { webhookUrl: 'http://127.0.0.1:9/hook' } } }, { token: hooked.accountToken });
      assert.equal(settings.status, 200);
      const user = uid('pending');
      await chatOk(server, hooked.botToken, { UserId: user });
      const injected = await chatOk(server, hooked.botToken, { UserId: user, Text: 'Via webhook' }, { DIRECTION: 'BOT' });
      assert.deepEqual(summary(injected.Parts), [[0, 'Via webhook']]);
      const pending = await chatOk(server, hooked.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, []);
      const ready = await chatOk(server, hooked.botToken, { UserId: user, Command: 'READY', HistoryLimit: 1 });
      assert.deepEqual(summary(ready.Parts), [[0, 'Via webhook']]);
    });
  });
}
