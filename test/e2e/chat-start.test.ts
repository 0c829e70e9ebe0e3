// api.md section 3, rules 1 (new conversation), 2 (RESET) and 10 (typing).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ASK_HUMAN, botFile, buttonCommand, chatOk, goTo, NOT_UNDERSTOOD, ORDER_QUESTION, positionOf, summary, text, uid, userPart, valuesOf, variablesOf, WELCOME } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const kind of databaseKinds()) {
  describe(`chat: new conversations, RESET, typing (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
    });
    after(() => server.close());

    test('rule 1: a new UserId starts a custom-channel conversation at the start interaction', async () => {
      const user = uid('new');
      const reply = await chatOk(server, support.botToken, { UserId: user });
      assert.deepEqual(summary(reply.Parts), WELCOME);
      assert.equal(reply.UserId, user);
      assert.equal(reply.ControlType, 0);
      assert.equal(reply.EnableUserChat, false);
      assert.match(reply.Creation, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
      assert.ok(Math.abs(Date.parse(reply.Creation) - Date.now()) < 60_000);
      const values = await valuesOf(server, support.botToken, user);
      assert.equal(values.Context.Channel, 'custom');
      const variables = await variablesOf(server, support.botToken, user);
      assert.equal(variables.channel, 'custom');
      assert.equal(variables.user_id, user);
      assert.equal(variables.company, 'ACME');
      // creation_date is when the conversation started, just before this first reply was made
      assert.match(variables.creation_date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
      assert.ok(Date.parse(variables.creation_date) <= Date.parse(reply.Creation));
      assert.ok(Date.parse(reply.Creation) - Date.parse(variables.creation_date) < 10_000);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome');
    });

    test('rule 1: without UserId the server makes a unique id, returns it and keeps the conversation', async () => {
      const first = await chatOk(server, support.botToken, {});
      const second = await chatOk(server, support.botToken, { Command: 'RESET' });
      assert.match(first.UserId, UUID);
      assert.match(second.UserId, UUID);
      assert.notEqual(first.UserId, second.UserId);
      assert.deepEqual(summary(first.Parts), WELCOME);
      assert.equal(await positionOf(server, support.botToken, first.UserId), 'Main/Welcome');
      // the id is a real conversation: the next message continues it
      const next = await chatOk(server, support.botToken, { UserId: first.UserId, Command: buttonCommand(first.Parts, 'Track an order') });
      assert.deepEqual(summary(next.Parts), [ORDER_QUESTION]);
    });

    test('rule 1: an absent body (no Content-Type) is a RESET of a new conversation', async () => {
      const res = await server.client.call('POST', '/custom/chat', undefined, { token: support.botToken, headers: { 'user-id': 'absent-body' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.UserId, 'absent-body');
      assert.deepEqual(summary(res.body.Parts), WELCOME);
    });

    test('rule 1: skipping initiation with a text that matches a trigger runs the trigger', async () => {
      const user = uid('skip');
      const reply = await chatOk(server, support.botToken, { UserId: user, Text: 'Human' });
      assert.deepEqual(summary(reply.Parts), [ASK_HUMAN]);
      assert.equal(reply.ControlType, 1);
      assert.equal(await positionOf(server, support.botToken, user), 'Escalation/Ask For Human');
      const variables = await variablesOf(server, support.botToken, user);
      assert.equal(variables.last_user_text, 'Human');
      assert.equal(variables.channel, 'custom');
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(summary(ready.Parts), [[19, 'Human'], ASK_HUMAN]);
    });

    test('rule 1: skipping initiation with a text no trigger matches runs the start interaction', async () => {
      const user = uid('skip');
      const reply = await chatOk(server, support.botToken, { UserId: user, Text: 'good morning' });
      assert.deepEqual(summary(reply.Parts), WELCOME);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome');
      assert.equal((await variablesOf(server, support.botToken, user)).last_user_text, 'good morning');
      // the text is not also handled as a miss by the fallback
      assert.equal((await variablesOf(server, support.botToken, user)).misses, undefined);
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(summary(ready.Parts), [[19, 'good morning'], ...WELCOME]);
      assert.deepEqual(ready.Parts[0], userPart('good morning', '', ''));
    });

    test('rule 2: RESET keeps variables, tags and history; clears the position and the waiting input', async () => {
      const user = uid('reset');
      const welcome = await chatOk(server, support.botToken, { UserId: user, Variables: { note: 'kept' }, Tags: ['gold'] });
      const asked = await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Track an order') });
      assert.deepEqual(summary(asked.Parts), [ORDER_QUESTION]);
      assert.equal(await positionOf(server, support.botToken, user), 'Orders/Ask Number');

      const reset = await chatOk(server, support.botToken, { UserId: user, Command: 'RESET' });
      assert.deepEqual(summary(reset.Parts), WELCOME);
      assert.equal(reset.EnableUserChat, false);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome');
      const values = await valuesOf(server, support.botToken, user);
      assert.deepEqual(values.Tags, ['gold']);
      assert.equal(values.Variables.find((v: any) => v.Name === 'note')?.Value, 'kept');

      // the order-number input no longer waits: a valid number is now just an unknown text
      const after = await chatOk(server, support.botToken, { UserId: user, Text: '123456' });
      assert.deepEqual(summary(after.Parts), [NOT_UNDERSTOOD]);
      assert.equal((await variablesOf(server, support.botToken, user)).order_number, undefined);

      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(summary(ready.Parts), [...WELCOME, [19, 'Track an order'], ORDER_QUESTION, ...WELCOME, [19, '123456'], NOT_UNDERSTOOD]);
    });

    test('rule 2: no Command, no Text and no forced position is a RESET (also as lower-case "reset")', async () => {
      const user = uid('reset');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Track an order') });
      const bare = await chatOk(server, support.botToken, { UserId: user, Variables: { x: '1' } });
      assert.deepEqual(summary(bare.Parts), WELCOME);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome');
      await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Track an order') });
      const empty = await server.client.call('POST', '/custom/chat', undefined, { token: support.botToken, raw: '', headers: { 'user-id': user } });
      assert.equal(empty.status, 200);
      assert.deepEqual(summary(empty.body.Parts), WELCOME);
      await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Track an order') });
      const lower = await chatOk(server, support.botToken, { UserId: user, Command: 'reset' });
      assert.deepEqual(summary(lower.Parts), WELCOME);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome');
    });

    test('rule 2: RESET with a Text ignores the text', async () => {
      const user = uid('reset');
      await chatOk(server, support.botToken, { UserId: user });
      const reply = await chatOk(server, support.botToken, { UserId: user, Command: 'RESET', Text: 'human' });
      assert.deepEqual(summary(reply.Parts), WELCOME);
      assert.equal(reply.ControlType, 0);
    });

    test('rule 10: TypeDelay = round(words × 60000 / WordsPerMinute) on text-like parts', async () => {
      const reply = await chatOk(server, support.botToken, { UserId: uid('type') });
      // WordsPerMinute 600: 4 words → 400 ms, 6 words → 600 ms; buttons are not typed
      assert.deepEqual(
        reply.Parts.map((p: any) => p.TypeDelay),
        [400, 600],
      );
      assert.deepEqual(
        reply.Parts[1].Parts.map((p: any) => [p.Type, p.Text, p.TypeDelay]),
        [
          [1, 'Track an order', 0],
          [1, 'Browse products', 0],
          [1, 'Talk to a person', 0],
          [17, 'Help center', 0],
        ],
      );
      const asked = await chatOk(server, support.botToken, { UserId: reply.UserId, Command: buttonCommand(reply.Parts, 'Track an order') });
      assert.deepEqual(
        asked.Parts.map((p: any) => [p.Type, p.TypeDelay]),
        [[6, 700]],
      );

      const slow = await createTenant(
        server.client,
        botFile([{ name: 'Hello', actions: [text('One'), text('Two words'), text('three  spaced   words'), { type: 'delay', ms: 1234 }] }], {
          settings: { enableTypeSpeed: true, wordsPerMinute: 7 },
        }),
      );
      const slowReply = await chatOk(server, slow.botToken, { UserId: uid('type') });
      // 60000/7 = 8571.43 → 8571; 2 words 17142.86 → 17143; 3 words 25714.29 → 25714; a delay is its ms
      assert.deepEqual(
        slowReply.Parts.map((p: any) => [p.Type, p.TypeDelay]),
        [
          [0, 8571],
          [0, 17143],
          [0, 25714],
          [25, 1234],
        ],
      );
      const config = await server.client.get('/custom/config', { token: slow.botToken });
      assert.equal(config.body.EnableTypeSpeed, true);
      assert.equal(config.body.WordsPerMinute, 7);
    });

    test('rule 10: TypeDelay is 0 with enableTypeSpeed off (a delay part keeps its ms)', async () => {
      const off = await createTenant(
        server.client,
        botFile([{ name: 'Hello', actions: [text('A sentence of six words here'), { type: 'delay', ms: 500 }] }], {
          settings: { enableTypeSpeed: false, wordsPerMinute: 100 },
        }),
      );
      const reply = await chatOk(server, off.botToken, { UserId: uid('type') });
      assert.deepEqual(
        reply.Parts.map((p: any) => [p.Type, p.TypeDelay]),
        [
          [0, 0],
          [25, 500],
        ],
      );
    });

    test('rule 10: EnableUserChat is the flag of the interaction where the turn stopped', async () => {
      const bot = await createTenant(
        server.client,
        botFile([
          { name: 'Closed', enableUserChat: false, actions: [text('closed'), goTo('Main', 'Open')] },
          { name: 'Open', enableUserChat: true, actions: [text('open')] },
          { name: 'Quiet', enableUserChat: false, actions: [text('quiet')] },
          { name: 'Default', actions: [text('default')] },
        ]),
      );
      const user = uid('euc');
      const first = await chatOk(server, bot.botToken, { UserId: user });
      assert.deepEqual(summary(first.Parts), [
        [0, 'closed'],
        [0, 'open'],
      ]);
      assert.equal(first.EnableUserChat, true);
      const quiet = await chatOk(server, bot.botToken, { UserId: user, ForcedInteraction: 'Quiet' });
      assert.deepEqual(summary(quiet.Parts), [[0, 'quiet']]);
      assert.equal(quiet.EnableUserChat, false);
      const dflt = await chatOk(server, bot.botToken, { UserId: user, ForcedBehaviour: 'Main', ForcedInteraction: 'Default' });
      assert.deepEqual(summary(dflt.Parts), [[0, 'default']]);
      assert.equal(dflt.EnableUserChat, true);
      // on the support bot: Welcome is closed, the order question open
      const support1 = await chatOk(server, support.botToken, { UserId: uid('euc') });
      assert.equal(support1.EnableUserChat, false);
      const asked = await chatOk(server, support.botToken, { UserId: support1.UserId, Command: buttonCommand(support1.Parts, 'Track an order') });
      assert.equal(asked.EnableUserChat, true);
    });
  });
}
