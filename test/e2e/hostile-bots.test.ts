// Bots that try to hang the server (bot-format.md "Loop guard"): a goTo cycle, a huge interaction,
// a callApi that never gets an answer. Each turn must end with a 200 within its guard, and the
// server must keep serving everyone else meanwhile.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, goTo, positionOf, summary, text, uid, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const cycleBot = () =>
  botFile(
    [
      { name: 'A', actions: [text('A'), goTo('Main', 'B'), text('never after a goTo')] },
      { name: 'B', actions: [text('B'), goTo('Main', 'A')] },
      { name: 'Self', actions: [text('self'), goTo('Main', 'Self')] },
      { name: 'Quiet', actions: [goTo('Main', 'Quiet')] },
    ],
    {
      triggers: [
        { match: 'self', actions: [goTo('Main', 'Self')] },
        { match: 'quiet', actions: [goTo('Main', 'Quiet')] },
      ],
    },
  );

const ACTIONS = 10_000;
const hugeBot = () => botFile([{ name: 'Huge', actions: Array.from({ length: ACTIONS }, (_, i) => text(`Line number ${i + 1} of a very long interaction.`)) }]);

const hangingBot = () =>
  botFile([
    { name: 'Start', actions: [text('ready')] },
    {
      name: 'Call',
      actions: [text('calling'), { type: 'callApi', method: 'GET', url: '{{api_url}}/slow', timeoutMs: 30000, variable: 'answer', onError: [text('failed: {{api_status}}')] }, text('after the call')],
    },
  ]);

// Issue 11: regexes met by visitor text used to backtrack for seconds to hours on the event loop.
const regexBot = () =>
  botFile(
    [
      { name: 'Start', actions: [text('ready')] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry, say that again?')] },
      { name: 'Site', actions: [{ type: 'input', question: 'Your website?', expect: 'url', variable: 'site', onSuccess: [text('site {{site}}')] }] },
    ],
    { triggers: [{ match: { regex: '^(a+)+$' }, actions: [text('only a')] }] },
  );

for (const kind of databaseKinds()) {
  describe(`hostile bots (${kind})`, () => {
    let server: TestServer;
    let other: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '1' });
      other = await createTenant(server.client);
    });
    after(() => server.close());

    test('a goTo cycle A→B→A… ends the turn after 25 moves with a 200 and what was produced', async () => {
      const tenant = await createTenant(server.client, cycleBot());
      const user = uid('cycle');
      const started = Date.now();
      const reply = await chatOk(server, tenant.botToken, { UserId: user });
      assert.ok(Date.now() - started < 5000, 'answered promptly');
      // the start interaction (not a move), then 25 moves; the 26th is refused
      const expected = Array.from({ length: 26 }, (_, i): [number, string] => [0, i % 2 === 0 ? 'A' : 'B']);
      assert.deepEqual(summary(reply.Parts), expected);
      assert.equal(await positionOf(server, tenant.botToken, user), 'Main/B');
      // the conversation is usable afterwards, and the guard holds for every turn
      const self = await chatOk(server, tenant.botToken, { UserId: user, Text: 'self' });
      assert.deepEqual(summary(self.Parts), new Array(25).fill([0, 'self']));
      const quiet = await chatOk(server, tenant.botToken, { UserId: user, Text: 'quiet' });
      assert.deepEqual(quiet.Parts, []);
      assert.equal(await positionOf(server, tenant.botToken, user), 'Main/Quiet');
      const again = await chatOk(server, tenant.botToken, { UserId: user, Command: 'RESET' });
      assert.equal(again.Parts.length, 26);
    });

    test('a 10,000-action interaction is accepted (bot limit 5 MiB) and a turn runs exactly its first 1,000 actions', async () => {
      const file = hugeBot();
      const size = Buffer.byteLength(JSON.stringify(file));
      assert.ok(size > 256 * 1024 && size < 5 * 1024 * 1024, `bot file of ${size} bytes`);
      const tenant = await createTenant(server.client, file);
      const user = uid('huge');
      const started = Date.now();
      const reply = await chatOk(server, tenant.botToken, { UserId: user });
      assert.ok(Date.now() - started < 10_000, 'answered within the guard');
      assert.equal(reply.Parts.length, 1000);
      assert.deepEqual(
        reply.Parts.map((p: any) => p.Text),
        Array.from({ length: 1000 }, (_, i) => `Line number ${i + 1} of a very long interaction.`),
      );
      assert.ok(reply.Parts.every((p: any) => p.Type === 0 && p.InteractionName === 'Huge'));
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.equal(ready.Parts.length, 1000);
    });

    test('hostile texts against a url input and a ^(a+)+$ trigger get the normal answers at once', { timeout: 10_000 }, async () => {
      const tenant = await createTenant(server.client, regexBot());
      const user = uid('regex');
      const health = async () => assert.equal((await server.client.get('/health')).status, 200);
      assert.deepEqual(summary((await chatOk(server, tenant.botToken, { UserId: user })).Parts), [[0, 'ready']]);
      // the trigger: 31 a and a ! is no match, so the fallback answers; all a still matches
      const noMatch = await chatOk(server, tenant.botToken, { UserId: user, Text: `${'a'.repeat(31)}!` });
      assert.deepEqual(summary(noMatch.Parts), [[0, 'Sorry, say that again?']]);
      await health();
      assert.deepEqual(summary((await chatOk(server, tenant.botToken, { UserId: user, Text: 'a'.repeat(5000) })).Parts), [[0, 'only a']]);
      // the url input: the hostile text is a wrong answer, and the question is asked again
      assert.deepEqual(summary((await chatOk(server, tenant.botToken, { UserId: user, ForcedInteraction: 'Site' })).Parts), [[6, 'Your website?']]);
      const retry = await chatOk(server, tenant.botToken, { UserId: user, Text: `http://${'a.'.repeat(2500)} b` });
      assert.deepEqual(summary(retry.Parts), [
        [0, "Sorry, I didn't get that."],
        [6, 'Your website?'],
      ]);
      await health();
      const done = await chatOk(server, tenant.botToken, { UserId: user, Text: 'https://example.org/shop' });
      assert.deepEqual(summary(done.Parts), [[0, 'site https://example.org/shop']]);
    });

    describe('a callApi that never gets an answer', () => {
      const hanging = http.createServer(() => {
        // accept the request and never answer
      });
      let apiUrl: string;
      let tenant: Tenant;
      before(async () => {
        await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
        apiUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
        tenant = await createTenant(server.client, hangingBot());
      });
      after(async () => {
        hanging.closeAllConnections();
        await new Promise((resolve) => hanging.close(resolve));
      });

      test('with timeoutMs 30000 the turn ends at the 10 s guard with 200; the server keeps serving', async () => {
        const user = uid('hang');
        await chatOk(server, tenant.botToken, { UserId: user, Variables: { api_url: apiUrl } });
        const started = Date.now();
        let ended = false;
        const turn = chatOk(server, tenant.botToken, { UserId: user, ForcedInteraction: 'Call' }).then((reply) => {
          ended = true;
          return { reply, ms: Date.now() - started };
        });

        // meanwhile: health and another conversation answer at once
        await new Promise((resolve) => setTimeout(resolve, 500));
        for (let i = 0; i < 3; i++) {
          const health = await server.client.get('/health');
          assert.equal(health.status, 200);
          assert.deepEqual(health.body, { Status: 'ok' });
          const otherReply = await chatOk(server, other.botToken, { UserId: uid('bystander'), Text: 'human' });
          assert.deepEqual(summary(otherReply.Parts), [[0, 'I am asking a colleague to join. Please hold on.']]);
          const sameBot = await chatOk(server, tenant.botToken, { UserId: uid('bystander') });
          assert.deepEqual(summary(sameBot.Parts), [[0, 'ready']]);
          // served while the hanging turn still waits (an order of events, not a time: tests never time)
          assert.equal(ended, false, `bystanders answered only after the hanging turn ended (round ${i + 1})`);
        }

        const { reply, ms } = await turn;
        // ended by the 10 s guard: not before it, and well before the step's own 30 s
        assert.ok(ms >= 9_500 && ms < 25_000, `the turn took ${ms} ms`);
        assert.deepEqual(summary(reply.Parts), [[0, 'calling']]);
        const variables = await variablesOf(server, tenant.botToken, user);
        assert.equal(variables.api_status, 'TIMEOUT');
        assert.equal(variables.answer, undefined);
        assert.equal(await positionOf(server, tenant.botToken, user), 'Main/Call');
        // the conversation takes the next message normally
        const next = await chatOk(server, tenant.botToken, { UserId: user, ForcedInteraction: 'Start' });
        assert.deepEqual(summary(next.Parts), [[0, 'ready']]);
      });
    });
  });
}
