// docs/limits.md: what one conversation may hold, so that no client (an anonymous web visitor
// least of all) can grow it without bound. Each limit: the exact status and Code when a request
// would cross it, and the conversation unchanged afterwards; the history is trimmed instead.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, chat, chatOk, text, uid, valuesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sendWeb, startWeb, web, webKeyOf } from '../support/web-kit.js';

const MAX_VARIABLES = 200;
const MAX_VALUE_BYTES = 4096;
const MAX_TAGS = 100;
const MAX_MESSAGES = 1000;
const MAX_HISTORY_BYTES = 1024 * 1024;
const MAX_PARTS_DEPTH = 8;

const echoBot = () =>
  botFile([{ name: 'Hello', actions: [text('Hi')] }], {
    variables: { company: 'ACME' },
    triggers: [{ match: { regex: '.' }, actions: [text('ok')] }],
    settings: { channels: { web: { enabled: true, allowedOrigins: ['*'], acceptVariables: ['note'] } } },
  });

/**
 * The JSON text of `{Type: 0, Parts: [...]}` nested `depth` levels deep (depth 1 = a part without
 * children), written as text: JSON.stringify itself overflows the stack on 3,000 levels.
 */
function nested(depth: number): string {
  let part = `{"Type":0,"Text":"level ${depth}"}`;
  for (let level = depth - 1; level >= 1; level--) part = `{"Type":0,"Text":"level ${level}","Parts":[${part}]}`;
  return part;
}
const injection = (user: string, depth: number) => `{"UserId":${JSON.stringify(user)},"Parts":[${nested(depth)}]}`;

/** A bot whose flow grows the conversation on every message, from what the user typed. */
const growingBot = () =>
  botFile([{ name: 'Hello', actions: [text('Hi')] }], {
    triggers: [
      {
        match: { regex: '.' },
        actions: [
          { type: 'setVariable', name: 'log', mode: 'append', value: '{{last_user_text}}' },
          { type: 'setTag', tag: '{{last_user_text}}' },
          { type: 'privacy', flag: '{{last_user_text}}', enabled: true },
          text('ok'),
        ],
      },
    ],
  });

for (const kind of databaseKinds()) {
  describe(`per-conversation limits, docs/limits.md (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let key: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, echoBot());
      key = await webKeyOf(server.client, tenant);
    });
    after(() => server.close());

    const refused = (res: { status: number; body: any; text: string }, code: string, limit: string, max: number) => {
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.Code, code);
      assert.equal(res.body.Limit, limit);
      assert.equal(res.body.Max, max);
    };

    test(`variables: at most ${MAX_VARIABLES} per conversation; one more is 400 LIMIT_EXCEEDED and changes nothing`, async () => {
      const user = uid('vars');
      await chatOk(server, tenant.botToken, { UserId: user });
      const start = (await valuesOf(server, tenant.botToken, user)).Variables.length; // company + system variables
      const fill = Object.fromEntries(Array.from({ length: MAX_VARIABLES - start }, (_, i) => [`v${i}`, `${i}`]));
      await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY', Variables: fill });
      const before = await valuesOf(server, tenant.botToken, user);
      assert.equal(before.Variables.length, MAX_VARIABLES);

      const over = await chat(server, tenant.botToken, { UserId: user, Text: 'hello', Variables: { v0: 'changed', extra: '1' } });
      refused(over, 'LIMIT_EXCEEDED', 'VariablesPerConversation', MAX_VARIABLES);
      const hook = await server.client.post('/apihook/status', { UpdateType: 'set-var', Name: 'extra', Value: '1' }, { token: tenant.botKey, headers: { 'user-id': user } });
      refused(hook, 'LIMIT_EXCEEDED', 'VariablesPerConversation', MAX_VARIABLES);
      assert.deepEqual(await valuesOf(server, tenant.botToken, user), before);
      const history = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.equal(
        history.Parts.some((p: any) => p.Text === 'hello'),
        false,
        'the refused text was not stored',
      );

      // Changing existing variables, or deleting one to make room, stays possible.
      await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY', Variables: { v0: 'changed', v1: null, extra: '1' } });
      const after = await valuesOf(server, tenant.botToken, user);
      assert.equal(after.Variables.length, MAX_VARIABLES);
      assert.equal(after.Variables.find((v: any) => v.Name === 'extra').Value, '1');
    });

    test(`values: at most ${MAX_VALUE_BYTES} bytes (UTF-8) each, on every route; longer is 400 LIMIT_EXCEEDED`, async () => {
      const user = uid('bytes');
      await chatOk(server, tenant.botToken, { UserId: user });
      const fits = 'é'.repeat(MAX_VALUE_BYTES / 2);
      await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY', Variables: { note: fits } });
      const before = await valuesOf(server, tenant.botToken, user);
      const tooLong = `${fits}x`;
      const answers = [
        await chat(server, tenant.botToken, { UserId: user, Variables: [{ Name: 'note', Value: tooLong }] }),
        await chat(server, tenant.botToken, { UserId: uid('bytes-new'), Variables: { note: tooLong } }),
        await server.client.post('/apihook/status', { UpdateType: 'set-var', Name: 'note', Value: tooLong }, { token: tenant.botKey, headers: { 'user-id': user } }),
        await web(server.client, 'POST', key, 'conversation', { Variables: { note: tooLong } }),
      ];
      assert.deepEqual(
        answers.map((res) => [res.status, res.body.Code, res.body.Limit, res.body.Max, res.body.Field]),
        [
          [400, 'LIMIT_EXCEEDED', 'VariableValueBytes', MAX_VALUE_BYTES, 'Variables.note'],
          [400, 'LIMIT_EXCEEDED', 'VariableValueBytes', MAX_VALUE_BYTES, 'Variables.note'],
          [400, 'LIMIT_EXCEEDED', 'VariableValueBytes', MAX_VALUE_BYTES, 'Value'],
          [400, 'LIMIT_EXCEEDED', 'VariableValueBytes', MAX_VALUE_BYTES, 'Variables.note'],
        ],
      );
      assert.deepEqual(await valuesOf(server, tenant.botToken, user), before);
    });

    test(`tags: at most ${MAX_TAGS} per conversation; one more is 400 LIMIT_EXCEEDED and changes nothing`, async () => {
      const user = uid('tags');
      await chatOk(server, tenant.botToken, { UserId: user, Tags: Array.from({ length: MAX_TAGS }, (_, i) => `t${i}`) });
      const before = await valuesOf(server, tenant.botToken, user);
      assert.equal(before.Tags.length, MAX_TAGS);
      refused(await chat(server, tenant.botToken, { UserId: user, Tags: ['t0', 'one-more'] }), 'LIMIT_EXCEEDED', 'TagsPerConversation', MAX_TAGS);
      const hook = await server.client.post('/apihook/status', { UpdateType: 'set-tag', Name: 'one-more' }, { token: tenant.botKey, headers: { 'user-id': user } });
      refused(hook, 'LIMIT_EXCEEDED', 'TagsPerConversation', MAX_TAGS);
      assert.deepEqual(await valuesOf(server, tenant.botToken, user), before);
      // Dropping one in the same request makes room.
      await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY', Tags: ['one-more'], DropTags: ['t0'] });
      assert.equal((await valuesOf(server, tenant.botToken, user)).Tags.includes('one-more'), true);
    });

    test(`history: the last ${MAX_MESSAGES} messages are kept; READY without HistoryLimit returns no more`, async () => {
      const user = uid('history');
      await chatOk(server, tenant.botToken, { UserId: user });
      const store = server.running.store;
      const bot = await store.bots.byApiKey(tenant.botKey);
      const conversation = (await store.conversations.byUser(bot!.id, user))!;
      const old = Array.from({ length: MAX_MESSAGES }, (_, i) => ({
        direction: 'BOT' as const,
        parts: [{ Type: 0, Text: `old ${i}`, Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Hello', Parts: [] }],
        pending: false,
      }));
      await store.transaction((tx) => tx.conversations.appendMessages(conversation.id, old, Date.now()));
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'newest' });
      assert.equal(await store.conversations.messageCount(conversation.id), MAX_MESSAGES);
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      // The welcome and the first 2 old ones went; the user's text and the answer are the newest 2.
      assert.equal(ready.Parts.length, MAX_MESSAGES);
      assert.equal(ready.Parts[0].Text, 'old 2');
      assert.deepEqual(
        ready.Parts.slice(-2).map((p: any) => p.Text),
        ['newest', 'ok'],
      );
    });

    test(`history: at most ${MAX_HISTORY_BYTES} bytes of stored parts; 80 web messages of 16 KB keep READY under it`, async () => {
      const started = await startWeb(server.client, key);
      const big = (i: number) => `${String(i).padStart(3, '0')} ${'x'.repeat(16380)}`;
      for (let i = 0; i < 80; i++) await sendWeb(server.client, key, { UserId: started.UserId, Text: big(i) });
      const resumed = await web(server.client, 'POST', key, 'conversation', { UserId: started.UserId });
      assert.equal(resumed.status, 200);
      const parts = resumed.body.Parts;
      assert.ok(JSON.stringify(parts).length <= MAX_HISTORY_BYTES, `READY is ${JSON.stringify(parts).length} bytes`);
      // Oldest first went: what is left is a contiguous tail ending with the last message.
      const texts = parts.filter((p: any) => p.Type === 19).map((p: any) => p.Text);
      assert.ok(texts.length >= 50 && texts.length < 80, `${texts.length} user messages kept`);
      assert.deepEqual(
        texts,
        Array.from({ length: texts.length }, (_, i) => big(80 - texts.length + i)),
      );
      assert.equal(parts.at(-1).Text, 'ok');
    });

    test('what the flow writes is cut, not refused: values to 64 KiB, tags to 100 of 256 characters, privacy flags to 100', async () => {
      const grower = await createTenant(server.client, growingBot());
      const user = uid('flow');
      const long = (i: number) => `${i}-${'a'.repeat(16000)}`;
      for (let i = 0; i < 5; i++) await chatOk(server, grower.botToken, { UserId: user, Text: long(i) });
      for (let i = 0; i < 100; i++) await chatOk(server, grower.botToken, { UserId: user, Text: `t${i}` });
      const values = await valuesOf(server, grower.botToken, user);
      const log = values.Variables.find((v: any) => v.Name === 'log').Value;
      assert.equal(Buffer.byteLength(log), 64 * 1024);
      assert.ok(log.startsWith(long(0)));
      assert.equal(values.Tags.length, MAX_TAGS);
      assert.deepEqual(
        values.Tags.slice(0, 5),
        [0, 1, 2, 3, 4].map((i) => long(i).slice(0, 256)),
      );
      assert.equal(values.Tags.at(-1), 't94', 'the newest went');
      const flags = values.PrivacyFlags.filter((f: any) => f.Enabled);
      assert.equal(flags.length, 100);
      assert.equal(flags.at(-1).Name, 't94');
    });

    test(`injected Parts: at most ${MAX_PARTS_DEPTH} levels deep; 3,000 levels is 400 INVALID_REQUEST, never a 500`, async () => {
      const user = uid('depth');
      await chatOk(server, tenant.botToken, { UserId: user });
      for (const direction of ['BOT', 'OPERATOR']) {
        for (const depth of [3000, MAX_PARTS_DEPTH + 1]) {
          const res = await server.client.post('/custom/chat', undefined, { token: tenant.botToken, headers: { DIRECTION: direction }, raw: injection(user, depth) });
          assert.equal(res.status, 400, `${direction} depth ${depth}: ${res.status} ${res.text.slice(0, 300)}`);
          assert.equal(res.body.Code, 'INVALID_REQUEST');
          assert.equal(res.body.Field, 'Parts');
          assert.equal(res.body.Limit, 'PartsDepth');
          assert.equal(res.body.Max, MAX_PARTS_DEPTH);
        }
      }
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.equal(ready.Parts.length, 1, 'nothing refused was stored');
      const deepest = await chatOk(server, tenant.botToken, JSON.parse(injection(user, MAX_PARTS_DEPTH)), { DIRECTION: 'BOT' });
      let part = deepest.Parts[0];
      for (let level = 1; level < MAX_PARTS_DEPTH; level++) part = part.Parts[0];
      assert.equal(part.Text, `level ${MAX_PARTS_DEPTH}`);
      const health = await server.client.get('/health');
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { Status: 'ok' });
    });
  });
}
