// api.md sections 7 and 8: GET/POST /custom/state, every row of the section 8 table and every
// status code: ban (days, message, bounce, lifting when its day ends), unban and its 409,
// takeover (e-mail, *, bad e-mail, from banned), handover (viewshares, dropshares, *), state 1
// from the bot's `operator` action, 400 for bad parameters, 404 for unknown users.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { botFile, chat, chatOk, summary, text, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// whileWaiting "bot": its triggers must run in state 1 to move it on (api.md rule 6b's default would
// hold 'bot please' for the operators; test/e2e/chat-waiting.test.ts covers that default).
const handoffBot = () =>
  botFile(
    [
      { name: 'Start', actions: [text('Hi')] },
      { name: 'Fallback', fallback: true, actions: [text('fallback')] },
    ],
    {
      settings: { operators: { whileWaiting: 'bot' } },
      triggers: [
        { match: 'call someone', actions: [text('Calling'), { type: 'operator', mode: 'request' }] },
        { match: 'bot please', actions: [{ type: 'operator', mode: 'bot' }, text('Back with the bot')] },
        { match: 'give me ann', actions: [{ type: 'operator', mode: 'takeover', operator: 'ann@example.org' }] },
      ],
    },
  );

for (const kind of databaseKinds()) {
  describe(`conversation state, api.md 7 and 8 (${kind})`, () => {
    let server: TestServer;
    let now = Date.parse('2026-11-22T23:30:00Z');
    let tenant: Tenant;
    let handoff: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      tenant = await createTenant(server.client);
      handoff = await createTenant(server.client, handoffBot());
    });
    after(() => server.close());

    const get = (user: string, token = tenant.botToken) => server.client.get(`/custom/state?userid=${encodeURIComponent(user)}`, { token });
    const post = (params: Record<string, unknown>, token = tenant.botToken) => server.client.post('/custom/state', params, { token });
    const started = async (prefix: string, body: Record<string, unknown> = {}) => {
      const user = uid(prefix);
      await chatOk(server, tenant.botToken, { UserId: user, ...body });
      return user;
    };
    const plain = (user: string, State: number, Operator: string | null = null) => ({ UserId: user, State, Operator, BanExpiration: null, BanMessage: null });

    test('GET /custom/state: 200 with the state; 404 for an unknown user; 400 without userid', async () => {
      const user = await started('get');
      assert.deepEqual((await get(user)).body, plain(user, 0));
      const unknown = await get('nobody-here');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
      assert.equal((await server.client.get('/custom/state', { token: tenant.botToken })).status, 400);
    });

    test('state 1 comes from the bot flow: the operator action with mode request; mode bot returns to 0; mode takeover to 2', async () => {
      const user = await started('requested', { Text: 'human' });
      assert.deepEqual((await get(user)).body, plain(user, 1));
      const other = uid('flow');
      await chatOk(server, handoff.botToken, { UserId: other, Text: 'call someone' });
      assert.equal((await get(other, handoff.botToken)).body.State, 1);
      const back = await chatOk(server, handoff.botToken, { UserId: other, Text: 'bot please' });
      assert.deepEqual(summary(back.Parts), [[0, 'Back with the bot']]);
      assert.equal((await get(other, handoff.botToken)).body.State, 0);
      await chatOk(server, handoff.botToken, { UserId: other, Text: 'give me ann' });
      assert.deepEqual((await get(other, handoff.botToken)).body, plain(other, 2, 'ann@example.org'));
    });

    test('ban with days and message: state 3, BanExpiration = today (UTC) + days; the parameters may come in the query', async () => {
      const user = await started('ban');
      const res = await post({ userid: user, state: 'ban', days: 3, message: 'Take a break' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { UserId: user, State: 3, Operator: null, BanExpiration: '2026-11-25', BanMessage: 'Take a break' });
      assert.deepEqual((await get(user)).body, res.body);
      const viaQuery = await started('ban-query');
      const q = await server.client.post(`/custom/state?userid=${viaQuery}&state=ban&days=1&message=Bye`, undefined, { token: tenant.botToken });
      assert.equal(q.status, 200, q.text);
      assert.equal(q.body.BanExpiration, '2026-11-23');
      assert.equal(q.body.BanMessage, 'Bye');
      const forever = await started('ban-forever');
      const f = await post({ userid: forever, state: 'ban' });
      assert.deepEqual(f.body, { UserId: forever, State: 3, Operator: null, BanExpiration: null, BanMessage: null });
    });

    test('a banned user is bounced (403) and the bounced messages are neither stored nor processed', async () => {
      const user = await started('bounce');
      const before = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      await post({ userid: user, state: 'ban', days: 1, message: 'No' });
      for (const body of [{ Text: 'human' }, { Text: 'hello?', Variables: { x: '1' }, Tags: ['t'] }, { Command: 'RESET' }]) {
        const res = await chat(server, tenant.botToken, { UserId: user, ...body });
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, { Code: 'USER_BANNED', Message: 'No', BanExpiration: '2026-11-23', BanMessage: 'No' });
      }
      const unbanned = await post({ userid: user, state: 'unban' });
      assert.deepEqual(unbanned.body, plain(user, 0));
      const after = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(after.Parts, before.Parts, 'no trace of the bounced messages');
      const values = (await server.client.get(`/custom/values?userid=${user}`, { token: tenant.botToken })).body;
      assert.deepEqual(values.Tags, []);
      assert.equal(
        values.Variables.some((v: any) => v.Name === 'x'),
        false,
      );
    });

    test('a ban lifts itself when its expiration day ends (UTC)', async () => {
      const start = now;
      try {
        const user = await started('lift');
        await post({ userid: user, state: 'ban', days: 1 });
        now = Date.parse('2026-11-23T23:59:59.999Z');
        assert.equal((await get(user)).body.State, 3);
        assert.equal((await chat(server, tenant.botToken, { UserId: user, Text: 'hi' })).status, 403);
        await server.running.maintenance.runOnce();
        assert.equal((await get(user)).body.State, 3, 'maintenance keeps a ban on its last day');
        now = Date.parse('2026-11-24T00:00:00Z');
        assert.deepEqual((await get(user)).body, plain(user, 0));
        await server.running.maintenance.runOnce();
        const bot = await server.running.store.bots.byApiKey(tenant.botKey);
        const stored = await server.running.store.conversations.byUser(bot!.id, user);
        assert.equal(stored!.controlState, 0, 'the store row is lifted too');
        assert.equal(stored!.banExpiration, null);
        const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: 'human' });
        assert.equal(reply.ControlType, 1);
      } finally {
        now = start;
      }
    });

    test('unban: 200 from state 3; 409 STATE_CONFLICT from any other state', async () => {
      const user = await started('unban');
      for (const setup of [null, { state: 'takeover', operator: '*' }, { state: 'handover' }]) {
        if (setup) await post({ userid: user, ...setup });
        const res = await post({ userid: user, state: 'unban' });
        assert.equal(res.status, 409, JSON.stringify(setup));
        assert.equal(res.body.Code, 'STATE_CONFLICT');
      }
      const requested = await started('unban-requested', { Text: 'human' });
      assert.equal((await post({ userid: requested, state: 'unban' })).status, 409);
      await post({ userid: user, state: 'ban' });
      assert.equal((await post({ userid: user, state: 'unban' })).status, 200);
    });

    test('takeover: with an e-mail (lower-cased) or *; 400 for a malformed e-mail; 409 from banned', async () => {
      const user = await started('takeover', { Text: 'human' });
      assert.deepEqual((await post({ userid: user, state: 'takeover', operator: 'Ann@Example.org' })).body, plain(user, 2, 'ann@example.org'));
      assert.deepEqual((await post({ userid: user, state: 'takeover', operator: '*' })).body, plain(user, 2, '*'));
      assert.deepEqual((await get(user)).body, plain(user, 2, '*'));
      const taken = await chatOk(server, tenant.botToken, { UserId: user, Text: 'anyone?' });
      assert.deepEqual(taken.Parts, []);
      assert.equal(taken.ControlType, 2);
      for (const operator of ['not-an-email', 'a@b', '@example.org', 'ann@', 'two words@example.org', '**']) {
        const res = await post({ userid: user, state: 'takeover', operator });
        assert.equal(res.status, 400, operator);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const banned = await started('takeover-banned');
      await post({ userid: banned, state: 'ban' });
      const res = await post({ userid: banned, state: 'takeover', operator: '*' });
      assert.equal(res.status, 409);
      assert.equal(res.body.Code, 'STATE_CONFLICT');
      assert.equal((await get(banned)).body.State, 3);
    });

    test('handover: back to 0 and the bot answers; 409 from banned', async () => {
      const user = await started('handover', { Text: 'human' });
      await post({ userid: user, state: 'takeover', operator: 'ann@example.org' });
      assert.deepEqual((await post({ userid: user, state: 'handover' })).body, plain(user, 0));
      const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: 'restart' });
      assert.equal(reply.ControlType, 0);
      assert.ok(reply.Parts.length > 0);
      const banned = await started('handover-banned');
      await post({ userid: banned, state: 'ban', days: 2 });
      const res = await post({ userid: banned, state: 'handover', mode: '*' });
      assert.equal(res.status, 409);
      assert.equal(res.body.Code, 'STATE_CONFLICT');
    });

    async function shareOf(user: string, mode: string): Promise<string> {
      const res = await server.client.post('/custom/share', { UserId: user, Mode: mode, Hours: 5 }, { token: tenant.botToken });
      assert.equal(res.status, 200, res.text);
      return new URL(res.body.Url).pathname;
    }

    test('handover mode=viewshares: takeover and auto links become view-only (their messages → 403)', async () => {
      const user = await started('viewshares', { Text: 'human' });
      const [takeover, auto, view] = [await shareOf(user, 'takeover'), await shareOf(user, 'auto'), await shareOf(user, 'view')];
      assert.equal((await server.client.post(`${takeover}/api/messages`, { Text: 'before' })).status, 200);
      assert.equal((await post({ userid: user, state: 'handover', mode: 'viewshares' })).status, 200);
      for (const link of [takeover, auto, view]) {
        const res = await server.client.post(`${link}/api/messages`, { Text: 'after' });
        assert.equal(res.status, 403, link);
        assert.equal(res.body.Code, 'SHARE_READ_ONLY');
        assert.equal((await server.client.get(`${link}/api/conversation`)).body.Mode, 'view');
      }
      assert.equal((await get(user)).body.State, 0, 'opening a view link does not take over again');
    });

    test('handover mode=dropshares: every link of the conversation answers 404', async () => {
      const user = await started('dropshares', { Text: 'human' });
      const links = [await shareOf(user, 'takeover'), await shareOf(user, 'view'), await shareOf(user, 'auto')];
      const other = await started('dropshares-other');
      const untouched = await shareOf(other, 'view');
      assert.equal((await post({ userid: user, state: 'handover', mode: 'dropshares' })).status, 200);
      for (const link of links) {
        const res = await server.client.get(link);
        assert.equal(res.status, 404, link);
        assert.equal(res.body.Code, 'SHARE_NOT_FOUND');
      }
      assert.equal((await server.client.get(untouched)).status, 200, 'other conversations keep their links');
    });

    test('handover mode=*: links untouched (a takeover link still takes over when opened again)', async () => {
      const user = await started('keepshares', { Text: 'human' });
      const link = await shareOf(user, 'takeover');
      assert.equal((await server.client.get(link)).status, 200);
      assert.equal((await get(user)).body.State, 2);
      assert.deepEqual((await post({ userid: user, state: 'handover', mode: '*' })).body, plain(user, 0));
      const again = await server.client.get(link);
      assert.equal(again.body.Mode, 'takeover');
      assert.equal((await get(user)).body.State, 2);
    });

    test('400 INVALID_REQUEST for an unknown state or mode, days not a positive integer, no userid', async () => {
      const user = await started('bad');
      const bad: Record<string, unknown>[] = [
        { state: 'sleep' },
        { state: '' },
        {},
        { state: 'handover', mode: 'keep' },
        { state: 'handover', mode: 'VIEW' },
        { state: 'ban', days: 0 },
        { state: 'ban', days: -2 },
        { state: 'ban', days: 1.5 },
        { state: 'ban', days: 'abc' },
        { state: 'ban', days: '2x' },
        { state: 'ban', days: '' },
        { state: 'ban', days: true },
      ];
      for (const params of bad) {
        const res = await post({ userid: user, ...params });
        assert.equal(res.status, 400, JSON.stringify(params));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      assert.equal((await post({ state: 'ban' })).status, 400);
      const viaQuery = await server.client.post(`/custom/state?userid=${user}&state=ban&days=0`, undefined, { token: tenant.botToken });
      assert.equal(viaQuery.status, 400);
      assert.deepEqual((await get(user)).body, plain(user, 0), 'nothing was applied');
      assert.equal((await post({ userid: user, state: 'BAN', days: '2' })).body.BanExpiration, '2026-11-24', 'names are case-insensitive, days may be a numeric string');
    });

    test('404 CONVERSATION_NOT_FOUND for an unknown user, for every state', async () => {
      for (const params of [{ state: 'ban', days: 1 }, { state: 'unban' }, { state: 'forget' }, { state: 'takeover', operator: '*' }, { state: 'handover', mode: '*' }]) {
        const res = await post({ userid: 'nobody-at-all', ...params });
        assert.equal(res.status, 404, JSON.stringify(params));
        assert.equal(res.body.Code, 'CONVERSATION_NOT_FOUND');
      }
      // another bot's conversation is unknown to this bot
      const user = await started('other-bot');
      assert.equal((await post({ userid: user, state: 'ban' }, handoff.botToken)).status, 404);
    });
  });
}
