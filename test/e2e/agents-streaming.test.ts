// agents.md "Streaming" on each database: a bot with settings.ai.stream asks its provider for a
// stream (the double answers as OpenAI's chat completions SSE does), the web widget's live stream
// gets the answer's pieces (`delta`, in order, coalesced, bounded) and then the whole message once;
// the custom channel's reply, the stored message and every other listener get the whole text once;
// a stream broken midway takes the shown pieces back and stores no half message.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { MAX_AI_ANSWER_BYTES } from '../../src/engine/actions/ai/index.js';
import { AiDouble } from '../support/ai-double.js';
import { botFile, chatOk, summary, text, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { openSse, type SseStream } from '../support/sse.js';
import { sendWeb, startWeb, webKeyOf } from '../support/web-kit.js';

const agent = {
  type: 'agent',
  instructions: 'You are the shop assistant.',
  maxSteps: 3,
  timeoutMs: 5000,
  variable: 'agent_answer',
  tools: [{ type: 'variable', name: 'remember_email', description: 'Store the e-mail', variable: 'email', schema: { type: 'string', format: 'email' } }],
  onError: [text('Let me get a colleague ({{agent_status}}).')],
};
const aiReply = { type: 'ai', mode: 'reply', instructions: 'Answer briefly.', say: true, variable: 'ai_answer', onError: [text('No answer ({{ai_status}}).')] };

const streamingBot = (stream: boolean) =>
  botFile(
    [
      { name: 'Start', actions: [text('Hi')] },
      { name: 'Agent', actions: [agent] },
      { name: 'Ask', actions: [aiReply] },
    ],
    {
      settings: { ai: { stream }, channels: { web: { enabled: true } } },
      triggers: [
        { match: 'assistant', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Agent' }] },
        { match: 'question', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Ask' }] },
      ],
    },
  );

for (const kind of databaseKinds()) {
  describe(`agents: streaming (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let tenant: Tenant;
    let key: string;
    const open: SseStream[] = [];
    before(async () => {
      ai = await AiDouble.start();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, streamingBot(true));
      key = await webKeyOf(server.client, tenant);
      const put = await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
    });
    after(async () => {
      for (const s of open) s.close();
      await server.close();
      await ai.close();
    });
    beforeEach(() => ai.reset());

    const listen = async (userId: string, client: string) => {
      const stream = await openSse(`${server.url}/web/${key}/events?userid=${encodeURIComponent(userId)}&client=${client}`);
      open.push(stream);
      assert.equal(stream.status, 200);
      await stream.next((e) => e.event === 'ready');
      return stream;
    };
    const deltas = (stream: SseStream) => stream.events.filter((e) => e.event === 'delta').map((e) => e.data);
    const messages = (stream: SseStream) => stream.events.filter((e) => e.event === 'message').map((e) => summary(e.data.Parts));
    /** a web conversation on its way into the agent: the widget (tab-a) and another tab (tab-b) listen */
    const webAgent = async () => {
      const started = await startWeb(server.client, key, { ClientId: 'tab-a' });
      return { user: started.UserId as string, own: await listen(started.UserId, 'tab-a'), other: await listen(started.UserId, 'tab-b') };
    };
    const history = async (user: string) => summary((await startWeb(server.client, key, { UserId: user, ClientId: 'tab-a' })).Parts);

    test('the widget gets the pieces in order as they arrive, then the whole message once; the stored message is whole', async () => {
      const { user, own, other } = await webAgent();
      const pieces = ['Your order ', 'has ', 'shipped.'];
      // each piece leaves the provider only once the one before reached the widget: no clock involved
      ai.next({ content: pieces.join(''), pieces, gate: async (i) => void (i > 0 && (await own.next((e) => e.event === 'delta' && e.data.Text === pieces[i - 1]))) });
      const reply = await sendWeb(server.client, key, { UserId: user, ClientId: 'tab-a', Text: 'assistant' });
      assert.deepEqual(summary(reply.Parts), [[0, 'Your order has shipped.']]);
      assert.equal(ai.requests[0].body.stream, true);
      assert.deepEqual(ai.requests[0].body.stream_options, { include_usage: true });
      const expected = [
        { Text: 'Your order ', Offset: 0 },
        { Text: 'has ', Offset: 11 },
        { Text: 'shipped.', Offset: 15 },
      ];
      assert.deepEqual(deltas(own), expected);
      // the other tab: the same pieces, then the message (once); the widget's own tab has it in its reply
      await other.next((e) => e.event === 'message' && e.data.Direction === 'BOT');
      assert.deepEqual(deltas(other), expected);
      assert.deepEqual(messages(other), [[[19, 'assistant']], [[0, 'Your order has shipped.']]]);
      const said = other.events.findIndex((e) => e.event === 'message' && e.data.Direction === 'BOT');
      assert.ok(
        other.events.slice(said).every((e) => e.event !== 'delta'),
        'the pieces come before the message',
      );
      assert.deepEqual(messages(own), []);
      assert.deepEqual((await history(user)).slice(-1), [[0, 'Your order has shipped.']]);
      assert.equal((await variablesOf(server, tenant.botToken, user)).agent_answer, 'Your order has shipped.');
    });

    test('tool calls stream too (joined by index); only the text is shown; the custom channel gets the whole reply, unchanged', async () => {
      const user = `custom-${kind}`;
      await chatOk(server, tenant.botToken, { UserId: user });
      ai.next({ toolCalls: [{ name: 'remember_email', arguments: { value: 'ann@example.org' } }] }, { content: 'Noted.', pieces: ['No', 'ted.'] });
      const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: 'assistant' });
      assert.deepEqual(summary(reply.Parts), [[0, 'Noted.']]);
      assert.equal((await variablesOf(server, tenant.botToken, user)).email, 'ann@example.org');
      const call = ai.requests[1].body.messages.at(-2)!;
      assert.equal(call.tool_calls?.[0].function.name, 'remember_email');
      assert.deepEqual(JSON.parse(call.tool_calls![0].function.arguments), { value: 'ann@example.org' });
      assert.deepEqual(
        ai.requests.map((r) => r.body.stream),
        [true, true],
      );
    });

    test("the ai action's reply streams; the text shown is bounded by the answer bound, the stored one cut there", async () => {
      const { user, other } = await webAgent();
      const pieces = Array.from({ length: 70 }, () => 'a'.repeat(1000));
      ai.next({ content: pieces.join(''), pieces });
      const reply = await sendWeb(server.client, key, { UserId: user, ClientId: 'tab-a', Text: 'question' });
      assert.equal(reply.Parts.at(-1).Text.length, MAX_AI_ANSWER_BYTES);
      await other.next((e) => e.event === 'message' && e.data.Direction === 'BOT');
      const shown = deltas(other);
      assert.ok(shown.length > 0);
      assert.ok(shown.length <= pieces.length, 'never more events than pieces');
      // contiguous: each piece goes where the one before ended
      let offset = 0;
      for (const d of shown) {
        assert.equal(d.Offset, offset);
        offset += d.Text.length;
      }
      assert.ok(offset <= MAX_AI_ANSWER_BYTES, `${offset} characters shown`);
      assert.equal(offset, 65_000, 'the 65 pieces that fit, none past the bound');
    });

    test('a stream broken midway: the pieces are taken back, onError runs, no half message is stored', async () => {
      const { user, own, other } = await webAgent();
      const pieces = ['Your order ', 'has ', 'shipped.'];
      // the connection drops once the widget has seen the first two pieces
      ai.next({ content: pieces.join(''), pieces, breakAfter: 2, gate: async (i) => void (i > 0 && (await own.next((e) => e.event === 'delta' && e.data.Text === pieces[i - 1]))) });
      const reply = await sendWeb(server.client, key, { UserId: user, ClientId: 'tab-a', Text: 'assistant' });
      assert.deepEqual(summary(reply.Parts), [[0, 'Let me get a colleague (ERROR).']]);
      const failed = await own.next((e) => e.event === 'delta' && e.data.Failed === true);
      assert.deepEqual(failed.data, { Text: '', Offset: 0, Failed: true });
      assert.equal(
        deltas(own)
          .map((d) => d.Text)
          .join(''),
        'Your order has ',
      );
      await other.next((e) => e.event === 'message' && e.data.Direction === 'BOT');
      assert.deepEqual(messages(other).slice(-1), [[[0, 'Let me get a colleague (ERROR).']]]);
      const stored = await history(user);
      assert.deepEqual(stored.slice(-1), [[0, 'Let me get a colleague (ERROR).']]);
      assert.ok(!stored.some(([, t]) => typeof t === 'string' && t.startsWith('Your order')), 'no half message');
      assert.equal((await variablesOf(server, tenant.botToken, user)).agent_status, 'ERROR');
    });

    test('a bot that does not stream asks for no stream and publishes no piece', async () => {
      const quiet = await createTenant(server.client, streamingBot(false));
      const put = await server.client.put(`/bots/${quiet.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: quiet.accountToken });
      assert.equal(put.status, 200);
      const quietKey = await webKeyOf(server.client, quiet);
      const started = await startWeb(server.client, quietKey, { ClientId: 'tab-a' });
      const stream = await openSse(`${server.url}/web/${quietKey}/events?userid=${started.UserId}&client=tab-b`);
      open.push(stream);
      await stream.next((e) => e.event === 'ready');
      ai.next({ content: 'Plain answer.' });
      const reply = await sendWeb(server.client, quietKey, { UserId: started.UserId, ClientId: 'tab-a', Text: 'assistant' });
      assert.deepEqual(summary(reply.Parts), [[0, 'Plain answer.']]);
      assert.equal(ai.requests[0].body.stream, undefined);
      await stream.next((e) => e.event === 'message' && e.data.Direction === 'BOT');
      assert.deepEqual(deltas(stream), []);
    });
  });
}
