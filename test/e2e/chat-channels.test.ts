// api.md section 3, "Chatting on another channel": DIRECTION BOT/OPERATOR injections and CHANNEL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chat, chatOk, NOT_UNDERSTOOD, positionOf, summary, uid, userPart, variablesOf, WELCOME } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`chat: another channel and injections (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
    });
    after(() => server.close());

    test('DIRECTION BOT: Text and Parts are stored, echoed and queued; the flow does not run', async () => {
      const user = uid('inject');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const reply = await chatOk(
        server,
        support.botToken,
        {
          UserId: user,
          Text: 'Your parcel left the warehouse.',
          Parts: [
            { Type: 3, Text: 'Label', Url: 'https://example.org/label.png' },
            { Type: 5, Parts: [{ Type: 14, Title: 'Card', Subtitle: 'Sub', ImageUrl: 'https://example.org/c.png', Parts: [{ Type: 17, Text: 'Open', Url: 'https://example.org' }] }] },
          ],
        },
        { DIRECTION: 'BOT' },
      );
      assert.equal(reply.UserId, user);
      assert.equal(reply.ControlType, 0);
      assert.equal(reply.EnableUserChat, false);
      // Creation is the time of this reply (api.md Conventions), not of the conversation
      assert.ok(Date.parse(reply.Creation) >= Date.parse(welcome.Creation), `${reply.Creation} ≥ ${welcome.Creation}`);
      const where = { BehaviourName: 'Main', InteractionName: 'Welcome' };
      assert.deepEqual(reply.Parts, [
        { Type: 0, Text: 'Your parcel left the warehouse.', Command: null, TypeDelay: 0, ...where, Parts: [] },
        { Type: 3, Text: 'Label', Command: null, TypeDelay: 0, ...where, Parts: [], Url: 'https://example.org/label.png' },
        {
          Type: 5,
          Text: null,
          Command: null,
          TypeDelay: 0,
          ...where,
          Parts: [
            {
              Type: 14,
              Text: null,
              Command: null,
              TypeDelay: 0,
              ...where,
              Parts: [{ Type: 17, Text: 'Open', Command: null, TypeDelay: 0, ...where, Parts: [], Url: 'https://example.org' }],
              Title: 'Card',
              Subtitle: 'Sub',
              ImageUrl: 'https://example.org/c.png',
            },
          ],
        },
      ]);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome');
      assert.equal((await variablesOf(server, support.botToken, user)).last_user_text, undefined);
      const pending = await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, reply.Parts);
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(ready.Parts, [...welcome.Parts, ...reply.Parts]);
    });

    test('DIRECTION OPERATOR: stored and queued without a takeover; header value is case-insensitive', async () => {
      const user = uid('inject');
      await chatOk(server, support.botToken, { UserId: user });
      const reply = await chatOk(server, support.botToken, { UserId: user, Text: 'Hi, Ann here.' }, { direction: 'operator' });
      assert.deepEqual(summary(reply.Parts), [[0, 'Hi, Ann here.']]);
      assert.equal(reply.ControlType, 0);
      // the user keeps talking to the bot
      const miss = await chatOk(server, support.botToken, { UserId: user, Text: 'qwerty' });
      assert.deepEqual(summary(miss.Parts), [NOT_UNDERSTOOD]);
      const pending = await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, reply.Parts);
    });

    test('DIRECTION OPERATOR with Variables and Tags: the values are applied first, then the line is injected', async () => {
      const user = uid('inject-values');
      await chatOk(server, support.botToken, { UserId: user });
      const reply = await chatOk(server, support.botToken, { UserId: user, Text: 'Noted.', Variables: { ticket: 'T-1' }, Tags: ['escalated'] }, { DIRECTION: 'OPERATOR' });
      assert.deepEqual(summary(reply.Parts), [[0, 'Noted.']]);
      assert.equal((await variablesOf(server, support.botToken, user)).ticket, 'T-1');
      const values = await server.client.get(`/custom/values?userid=${user}`, { token: support.botToken });
      assert.deepEqual(values.body.Tags, ['escalated']);
    });

    test('DIRECTION BOT with neither Text nor Parts stores nothing', async () => {
      const user = uid('inject');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const reply = await chatOk(server, support.botToken, { UserId: user }, { DIRECTION: 'BOT' });
      assert.deepEqual(reply.Parts, []);
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(ready.Parts, welcome.Parts);
      assert.deepEqual((await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' })).Parts, []);
    });

    test('DIRECTION BOT/OPERATOR or CHANNEL for an unknown user: 404 CONVERSATION_NOT_FOUND, nothing created', async () => {
      const user = uid('nobody');
      const cases: [Record<string, unknown>, Record<string, string>][] = [
        [{ Text: 'hello' }, { DIRECTION: 'BOT' }],
        [{ Text: 'hello' }, { DIRECTION: 'OPERATOR' }],
        [{ Text: 'hello' }, { CHANNEL: 'custom' }],
        [{ Text: 'hello', Channel: 'web' }, {}],
        [{ Command: 'READY' }, { CHANNEL: 'custom' }],
      ];
      for (const [body, headers] of cases) {
        const res = await chat(server, support.botToken, { UserId: user, ...body }, headers);
        assert.equal(res.status, 404, JSON.stringify([body, headers]));
        assert.equal(res.body.Code, 'CONVERSATION_NOT_FOUND');
      }
      const position = await server.client.get(`/custom/position?userid=${user}`, { token: support.botToken });
      assert.equal(position.status, 404);
    });

    test('CHANNEL naming another channel than the conversation’s: 409 CHANNEL_MISMATCH, nothing stored', async () => {
      const user = uid('channel');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const cases: [Record<string, unknown>, Record<string, string>][] = [
        [{ Text: 'hi' }, { CHANNEL: 'web' }],
        [{ Text: 'hi', Channel: 'WEB' }, {}],
        [{ Text: 'injected' }, { CHANNEL: 'telegram', DIRECTION: 'BOT' }],
      ];
      for (const [body, headers] of cases) {
        const res = await chat(server, support.botToken, { UserId: user, ...body }, headers);
        assert.equal(res.status, 409, JSON.stringify([body, headers]));
        assert.equal(res.body.Code, 'CHANNEL_MISMATCH');
      }
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(ready.Parts, welcome.Parts);
    });

    test('CHANNEL custom (any case) with DIRECTION USER processes the text as usual and queues nothing', async () => {
      const user = uid('channel');
      await chatOk(server, support.botToken, { UserId: user });
      const viaHeader = await chatOk(server, support.botToken, { UserId: user, Text: 'human' }, { CHANNEL: 'Custom', DIRECTION: '' });
      assert.deepEqual(summary(viaHeader.Parts), [[0, 'I am asking a colleague to join. Please hold on.']]);
      const viaField = await chatOk(server, support.botToken, { UserId: user, Text: 'still here', Channel: 'CUSTOM' });
      assert.deepEqual(summary(viaField.Parts), [[0, 'A colleague will be with you shortly.']]);
      const pending = await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, []);
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY', HistoryLimit: 2 });
      assert.deepEqual(ready.Parts, [userPart('still here', 'Escalation', 'Ask For Human'), ...viaField.Parts]);
    });

    test('DIRECTION with another value: 400 INVALID_REQUEST, nothing happens', async () => {
      const user = uid('direction');
      await chatOk(server, support.botToken, { UserId: user });
      for (const direction of ['SYSTEM', 'bots', 'USER,BOT']) {
        const res = await chat(server, support.botToken, { UserId: user, Text: 'human' }, { DIRECTION: direction });
        assert.equal(res.status, 400, direction);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
        assert.equal(res.body.Field, 'DIRECTION');
      }
      const fresh = await chat(server, support.botToken, { UserId: uid('direction') }, { DIRECTION: 'garbage' });
      assert.equal(fresh.status, 400);
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(summary(ready.Parts), WELCOME);
      // an explicit USER is the default
      const user2 = await chatOk(server, support.botToken, { UserId: user, Text: 'human' }, { DIRECTION: 'user' });
      assert.equal(user2.ControlType, 1);
    });

    test('injections reach a taken-over conversation too, and are echoed with its position', async () => {
      const taken = await createTenant(server.client, {
        format: 'colloquy/bot@1',
        name: 'Takeover',
        settings: { enableTypeSpeed: false, wordsPerMinute: 200 },
        behaviours: [{ name: 'Desk', start: true, interactions: [{ name: 'Hand', start: true, actions: [{ type: 'operator', mode: 'takeover' }] }] }],
      });
      const user = uid('inject');
      const first = await chatOk(server, taken.botToken, { UserId: user });
      assert.equal(first.ControlType, 2);
      const op = await chatOk(server, taken.botToken, { UserId: user, Text: 'Operator speaking' }, { DIRECTION: 'OPERATOR' });
      assert.deepEqual(
        op.Parts.map((p: any) => [p.Type, p.Text, p.BehaviourName, p.InteractionName]),
        [[0, 'Operator speaking', 'Desk', 'Hand']],
      );
      assert.equal(op.ControlType, 2);
      const pending = await chatOk(server, taken.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(pending.Parts, op.Parts);
    });
  });
}
