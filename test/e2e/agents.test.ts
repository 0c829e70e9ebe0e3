// agents.md over the HTTP API (the custom channel) on each database, with the OpenAI-compatible
// double scripting text and tool calls and a small shop API of the test's own: the save-time
// checks, holding the conversation, the http / variable / flow / handover tools, usage, the
// budget, and the hostile cases (unknown tools, non-JSON arguments, 100 calls at once, a model
// that loops, megabyte answers, a hanging tool).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AiDouble } from '../support/ai-double.js';
import { botFile, chatOk, summary, text, variablesOf } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The shop's API: /orders/<n> answers JSON; /hang never answers; every request is recorded. */
async function startShop() {
  const requests: Array<{ method: string; url: string; body: string; authorization?: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body, authorization: req.headers.authorization });
      if (req.url?.startsWith('/hang')) return; // a tool that hangs
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ order: decodeURIComponent(req.url?.split('/').pop() ?? ''), state: 'shipped' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const ORDER = { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{6}$' } }, required: ['order'] };

function agentBot(shopUrl: string, settings: Record<string, unknown> = {}) {
  const agent = {
    type: 'agent',
    instructions: 'You are the assistant of {{company}}.',
    maxSteps: 3,
    timeoutMs: 3000,
    variable: 'agent_answer',
    tools: [
      { type: 'http', name: 'order_status', description: 'Status of an order', parameters: ORDER, request: { method: 'GET', url: `${shopUrl}/orders/{{order}}` } },
      { type: 'http', name: 'slow', description: 'Hangs', parameters: { type: 'object', properties: {} }, request: { method: 'GET', url: `${shopUrl}/hang` }, timeoutMs: 300 },
      { type: 'variable', name: 'remember_email', description: 'Store the e-mail', variable: 'email', schema: { type: 'string', format: 'email' } },
      { type: 'flow', name: 'book_repair', description: 'Start the booking', behaviour: 'Repairs', interaction: 'Book' },
      { type: 'handover', description: 'When the user asks for a person' },
    ],
    onError: [text('Let me get a colleague ({{agent_status}}).')],
  };
  return botFile(
    [
      { name: 'Start', actions: [text('Hi')] },
      { name: 'Agent', actions: [agent] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    {
      variables: { company: 'Spokes' },
      settings: { ai: settings },
      triggers: [
        { match: 'assistant', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Agent' }] },
        { match: 'menu', actions: [text('The menu')] },
      ],
      behaviours: [{ name: 'Repairs', interactions: [{ name: 'Book', start: true, actions: [text('Booking for {{email}}.')] }] }],
    },
  );
}

for (const kind of databaseKinds()) {
  describe(`agents (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let shop: Awaited<ReturnType<typeof startShop>>;
    let tenant: Tenant;
    let n = 0;
    before(async () => {
      ai = await AiDouble.start();
      shop = await startShop();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, agentBot(shop.url));
      const put = await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: tenant.accountToken });
      assert.equal(put.status, 200);
    });
    after(async () => {
      await server.close();
      await ai.close();
      await shop.close();
    });
    beforeEach(() => {
      ai.reset();
      shop.requests.length = 0;
    });

    const say = (user: string, t: string) => chatOk(server, tenant.botToken, { UserId: user, Text: t });
    /** a new conversation already held by the agent (reached with its first text) */
    const held = async (first: string, ...scripts: Parameters<AiDouble['next']>) => {
      const user = `agent-${kind}-${n++}`;
      await chatOk(server, tenant.botToken, { UserId: user });
      ai.next(...scripts);
      return { user, reply: await say(user, first) };
    };
    const usage = async () => (await server.client.get('/account/usage', { token: tenant.accountToken })).body;

    test('the agent answers with an http tool; tools are sent as OpenAI functions; it keeps the conversation from triggers', async () => {
      const before = await usage();
      const { user, reply } = await held('assistant', { toolCalls: [{ name: 'order_status', arguments: { order: '123456' } }], tokens: 30 }, { content: 'Your order 123456 has shipped.', tokens: 20 });
      assert.deepEqual(summary(reply.Parts), [[0, 'Your order 123456 has shipped.']]);
      assert.deepEqual(
        shop.requests.map((r) => `${r.method} ${r.url}`),
        ['GET /orders/123456'],
      );
      assert.equal(ai.requests.length, 2);
      const first = ai.requests[0].body;
      assert.equal(first.messages[0].content, 'You are the assistant of Spokes.');
      assert.deepEqual(
        first.tools?.map((t) => [t.type, t.function.name]),
        [
          ['function', 'order_status'],
          ['function', 'slow'],
          ['function', 'remember_email'],
          ['function', 'book_repair'],
          ['function', 'handover'],
        ],
      );
      assert.deepEqual(first.tools?.[0].function.parameters, ORDER);
      const second = ai.requests[1].body.messages.slice(-2);
      assert.equal(second[0].tool_calls?.[0].function.name, 'order_status');
      assert.equal(second[1].role, 'tool');
      assert.equal(second[1].tool_call_id, second[0].tool_calls?.[0].id);
      assert.deepEqual(JSON.parse(second[1].content), { status: 200, body: { order: '123456', state: 'shipped' } });
      const after = await usage();
      assert.equal(after.ApiCalls - before.ApiCalls, 3, 'two model calls and one HTTP tool call');
      assert.equal(after.AiTokens - before.AiTokens, 50);
      const vars = await variablesOf(server, tenant.botToken, user);
      assert.equal(vars.agent_status, 'OK');
      assert.equal(vars.agent_answer, 'Your order 123456 has shipped.');
      // "menu" is a trigger, but the agent holds the conversation: the text is the agent's
      ai.next({ content: 'I can look up orders.' });
      assert.deepEqual(summary((await say(user, 'menu')).Parts), [[0, 'I can look up orders.']]);
      const history = ai.requests.at(-1)!.body.messages;
      assert.deepEqual(history.at(-1), { role: 'user', content: 'menu' });
      const position = await server.client.get(`/custom/position?UserId=${user}`, { token: tenant.botToken });
      assert.equal(position.body.InteractionName ?? position.body.Interaction, 'Agent', JSON.stringify(position.body));
    });

    test("an http tool's {{secret.NAME}} reaches only the secret's hosts; neither the model nor the trace sees it", async () => {
      const VALUE = 'sk-shop-7f3a9c';
      const keyed = agentBot(shop.url);
      const agent = keyed.behaviours[0].interactions.find((i: { name: string }) => i.name === 'Agent').actions[0];
      agent.tools[0].request.headers = { Authorization: 'Bearer {{secret.shop_api}}' };
      agent.tools.push({
        type: 'http',
        name: 'elsewhere',
        description: 'Another host',
        parameters: { type: 'object', properties: {} },
        request: { method: 'GET', url: `${shop.url.replace('127.0.0.1', 'localhost')}/orders/1`, headers: { Authorization: 'Bearer {{secret.shop_api}}' } },
      });
      const other = await createTenant(server.client, keyed);
      assert.equal((await server.client.put(`/bots/${other.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: other.accountToken })).status, 200);
      assert.equal((await server.client.put(`/bots/${other.botKey}/secrets/shop_api`, { Value: VALUE, Hosts: ['127.0.0.1'] }, { token: other.accountToken })).status, 204);
      const user = `agent-secret-${kind}`;
      await chatOk(server, other.botToken, { UserId: user });
      ai.next(
        {
          toolCalls: [
            { name: 'order_status', arguments: { order: '654321' } },
            { name: 'elsewhere', arguments: {} },
          ],
        },
        { content: 'Shipped.' },
      );
      assert.deepEqual(summary((await chatOk(server, other.botToken, { UserId: user, Text: 'assistant' })).Parts), [[0, 'Shipped.']]);
      assert.deepEqual(
        shop.requests.map((r) => [r.url, r.authorization]),
        [
          ['/orders/654321', `Bearer ${VALUE}`],
          ['/orders/1', 'Bearer'],
        ],
        'the value goes to its host only; elsewhere the slot is sent empty',
      );
      assert.ok(!JSON.stringify(ai.requests.map((r) => r.body)).includes(VALUE), 'the model never sees the value');
      const trace = await server.client.get(`/bots/${other.botKey}/conversations/${user}/trace`, { token: other.accountToken });
      assert.equal(trace.status, 200);
      assert.ok(!JSON.stringify(trace.body).includes(VALUE), 'nor does the trace');
    });

    test('a RESET leaves the agent; reached again without text, it waits for the user before calling the model', async () => {
      const { user } = await held('assistant', { content: 'Hello!' });
      await chatOk(server, tenant.botToken, { UserId: user, Command: 'RESET' });
      assert.deepEqual(summary((await say(user, 'menu')).Parts), [[0, 'The menu']]);
      const forced = await chatOk(server, tenant.botToken, { UserId: user, ForcedBehaviour: 'Main', ForcedInteraction: 'Agent' });
      assert.deepEqual(forced.Parts, []);
      assert.equal(ai.requests.length, 1);
      ai.next({ content: 'Yes?' });
      assert.deepEqual(summary((await say(user, 'menu')).Parts), [[0, 'Yes?']]);
    });

    test('hostile model: unknown tools, non-JSON and unfitting arguments are told to it; none reaches the shop', async () => {
      const { reply } = await held(
        'assistant',
        {
          toolCalls: [
            { name: 'drop_tables', arguments: {} },
            { name: 'order_status', arguments: '{"order": ' },
            { name: 'order_status', arguments: { order: '../admin' } },
          ],
        },
        { content: 'Sorry, which order?' },
      );
      assert.deepEqual(summary(reply.Parts), [[0, 'Sorry, which order?']]);
      assert.equal(shop.requests.length, 0);
      const results = ai.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content).error);
      assert.equal(results[0], 'unknown tool: drop_tables');
      assert.equal(results[1], 'arguments are not JSON');
      assert.match(results[2], /^arguments do not fit: \/order must match pattern/);
    });

    test('100 tool calls at once: 10 are made, 90 refused; a model that loops ends at maxSteps with onError', async () => {
      const many = Array.from({ length: 100 }, (_, i) => ({ name: 'order_status', arguments: { order: String(100000 + i) } }));
      const loop = { toolCalls: many };
      const { user, reply } = await held('assistant', loop, loop, loop);
      assert.equal(shop.requests.length, 30, '10 calls in each of 3 steps');
      assert.equal(ai.requests.length, 3);
      assert.deepEqual(summary(reply.Parts), [[0, 'Let me get a colleague (MAX_STEPS).']]);
      ai.next({ content: 'Still here.' });
      assert.deepEqual(summary((await say(user, 'hello?')).Parts), [[0, 'Still here.']], 'the agent keeps the conversation');
    });

    test('a megabyte answer and a failing provider are ERROR; a hanging tool is cut by its timeout and reported to the model', async () => {
      const huge = await held('assistant', { contentBytes: 2 * 1024 * 1024 });
      assert.deepEqual(summary(huge.reply.Parts), [[0, 'Let me get a colleague (ERROR).']]);
      const failing = await held('assistant', { status: 500 });
      assert.deepEqual(summary(failing.reply.Parts), [[0, 'Let me get a colleague (ERROR).']]);
      const slow = await held('assistant', { toolCalls: [{ name: 'slow', arguments: {} }] }, { content: 'The shop is slow today.' });
      assert.deepEqual(summary(slow.reply.Parts), [[0, 'The shop is slow today.']]);
      assert.deepEqual(JSON.parse(ai.requests.at(-1)!.body.messages.at(-1)!.content), { error: 'the call timed out' });
    });

    test('variable and flow tools: the checked value is stored, the flow runs in the same turn and the agent lets go', async () => {
      const { user, reply } = await held(
        'assistant',
        { toolCalls: [{ name: 'remember_email', arguments: { value: 'not-an-email' } }] },
        {
          toolCalls: [
            { name: 'remember_email', arguments: { value: 'ann@example.org' } },
            { name: 'book_repair', arguments: {} },
          ],
        },
      );
      assert.deepEqual(summary(reply.Parts), [[0, 'Booking for ann@example.org.']]);
      assert.match(JSON.parse(ai.requests[1].body.messages.at(-1)!.content).error, /^arguments do not fit/);
      assert.equal(ai.requests.length, 2);
      assert.deepEqual(summary((await say(user, 'menu')).Parts), [[0, 'The menu']], 'triggers work again');
    });

    test('handover tool: the conversation waits for an operator with the reason as a note; operators read it and the trace', async () => {
      const { user } = await held('assistant', { toolCalls: [{ name: 'handover', arguments: { reason: 'wants a refund' } }] });
      const state = await server.client.get(`/custom/state?UserId=${user}`, { token: tenant.botToken });
      assert.equal(state.status, 200);
      assert.equal(state.body.State ?? state.body.ControlState, 1, JSON.stringify(state.body));
      // the operators read the model's reason as a note signed by the bot, and the trace through their session
      await addOperator(server.client, tenant.accountId, `ops-${kind}@example.org`, undefined, 'Ops', 'agent');
      const ops = consoleClient(server.client, await signIn(server.client, `ops-${kind}@example.org`));
      const botId = await botIdOf(server, tenant.botKey);
      const view = await ops.get(ops.conversationPath(botId, user));
      assert.equal(view.status, 200, view.text);
      assert.deepEqual(
        view.body.Notes.map((note: any) => [note.Author, note.Text]),
        [['Test bot', 'wants a refund']],
      );
      const trace = await ops.get(`/bots/${botId}/conversations/${user}/trace`);
      assert.equal(trace.status, 200, trace.text);
      assert.deepEqual(
        trace.body.Result[0].Steps.map((s: any) => [s.Kind, s.Name ?? null]),
        [
          ['model', null],
          ['tool', 'handover'],
        ],
      );
    });

    test("an operator's takeover ends the agent's hold: handed back, the user's texts reach the triggers again", async () => {
      const { user } = await held('assistant', { content: 'Hello!' });
      const take = await server.client.post('/custom/state', { userid: user, state: 'takeover' }, { token: tenant.botToken });
      assert.equal(take.status, 200, take.text);
      const back = await server.client.post('/custom/state', { userid: user, state: 'handover' }, { token: tenant.botToken });
      assert.equal(back.status, 200, back.text);
      assert.deepEqual(summary((await say(user, 'menu')).Parts), [[0, 'The menu']]);
      assert.equal(ai.requests.length, 1);
    });

    test('past settings.ai.maxTokensPerConversationDay the model is not called: BUDGET', async () => {
      const small = await createTenant(server.client, agentBot(shop.url, { maxTokensPerConversationDay: 25 }));
      await server.client.put(`/bots/${small.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: small.accountToken });
      const user = `budget-${kind}`;
      await chatOk(server, small.botToken, { UserId: user });
      ai.next({ content: 'First answer.', tokens: 30 });
      assert.deepEqual(summary((await chatOk(server, small.botToken, { UserId: user, Text: 'assistant' })).Parts), [[0, 'First answer.']]);
      assert.deepEqual(summary((await chatOk(server, small.botToken, { UserId: user, Text: 'again' })).Parts), [[0, 'Let me get a colleague (BUDGET).']]);
      assert.equal(ai.requests.length, 1);
    });

    test('the trace: each agent turn newest first, its model and tool steps with arguments and results; limit; forget removes it', async () => {
      const { user } = await held(
        'assistant',
        {
          toolCalls: [
            { name: 'order_status', arguments: { order: '654321' } },
            { name: 'nope', arguments: {} },
          ],
          tokens: 12,
        },
        { content: 'Shipped.', tokens: 8 },
      );
      ai.next({ content: 'Anything else?', tokens: 5 });
      await say(user, 'thanks');
      const trace = await server.client.get(`/bots/${tenant.botKey}/conversations/${user}/trace`, { token: tenant.accountToken });
      assert.equal(trace.status, 200, trace.text);
      assert.equal(trace.body.Result.length, 2);
      const [newest, first] = trace.body.Result;
      assert.deepEqual(
        newest.Steps.map((s: any) => [s.Kind, s.Status, s.Tokens]),
        [['model', 'OK', 5]],
      );
      assert.deepEqual(
        first.Steps.map((s: any) => [s.Kind, s.Name ?? null, s.Status]),
        [
          ['model', null, 'OK'],
          ['tool', 'order_status', 'OK'],
          ['tool', 'nope', 'ERROR'],
          ['model', null, 'OK'],
        ],
      );
      assert.equal(first.Steps[1].Arguments, '{"order":"654321"}');
      assert.deepEqual(JSON.parse(first.Steps[1].Result), { status: 200, body: { order: '654321', state: 'shipped' } });
      assert.equal(first.Steps[2].Error, 'unknown tool: nope');
      assert.match(first.At, /^\d{4}-\d{2}-\d{2}T/);
      // the personal-data export holds the same steps (governance.md), oldest turn first
      const exported = await server.client.get(`/bots/${tenant.botKey}/conversations/${user}/export`, { token: tenant.accountToken });
      assert.equal(exported.status, 200);
      const doc = JSON.parse(exported.text);
      assert.deepEqual(
        doc.AgentTraces.map((t: any) => t.Steps.map((s: any) => s.Kind)),
        [['model', 'tool', 'tool', 'model'], ['model']],
      );
      assert.equal(doc.AgentTraces[0].Steps[1].Arguments, '{"order":"654321"}');
      assert.match(doc.AgentTraces[0].At, /^\d{4}-\d{2}-\d{2}T/);
      const one = await server.client.get(`/bots/${tenant.botKey}/conversations/${user}/trace?limit=1`, { token: tenant.accountToken });
      assert.equal(one.body.Result.length, 1);
      const bad = await server.client.get(`/bots/${tenant.botKey}/conversations/${user}/trace?limit=0`, { token: tenant.accountToken });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Code, 'INVALID_REQUEST');
      const unknown = await server.client.get(`/bots/${tenant.botKey}/conversations/nobody/trace`, { token: tenant.accountToken });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
      // forget: once the conversation is gone, the same user starts afresh with no trace
      assert.equal((await server.client.post('/custom/state', { userid: user, state: 'forget' }, { token: tenant.botToken })).status, 202);
      while ((await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken })).status !== 404) await new Promise((resolve) => setImmediate(resolve));
      await chatOk(server, tenant.botToken, { UserId: user });
      const after = await server.client.get(`/bots/${tenant.botKey}/conversations/${user}/trace`, { token: tenant.accountToken });
      assert.deepEqual(after.body, { Result: [] });
    });

    test('checked at save: tool names, duplicates, parameters, flow targets, maxSteps and history, each at its JSON path', async () => {
      const bad = (tools: unknown[], extra: Record<string, unknown> = {}) => botFile([{ name: 'Start', actions: [{ type: 'agent', instructions: 'x', tools, ...extra }] }]);
      const cases: Array<[unknown, string]> = [
        [bad([{ type: 'http', name: 'has space', description: 'x', request: { method: 'GET', url: 'https://a.example' } }]), '$.behaviours[0].interactions[0].actions[0].tools[0].name'],
        [
          bad([
            { type: 'handover', description: 'a' },
            { type: 'handover', description: 'b' },
          ]),
          '$.behaviours[0].interactions[0].actions[0].tools[1].name',
        ],
        [bad([{ type: 'flow', name: 'f', description: 'x', behaviour: 'Main', parameters: { type: 'string' } }]), '$.behaviours[0].interactions[0].actions[0].tools[0].parameters'],
        [bad([{ type: 'flow', name: 'f', description: 'x', behaviour: 'Nowhere' }]), '$.behaviours[0].interactions[0].actions[0].tools[0].behaviour'],
        [bad([], { maxSteps: 11 }), '$.behaviours[0].interactions[0].actions[0].maxSteps'],
        [bad([], { history: 101 }), '$.behaviours[0].interactions[0].actions[0].history'],
      ];
      for (const [file, path] of cases) {
        const res = await server.client.post('/bots', file, { token: tenant.accountToken });
        assert.equal(res.status, 400, path);
        assert.equal(res.body.Code, 'INVALID_BOT');
        assert.ok(
          res.body.Problems.some((p: { Path: string }) => p.Path === path),
          `${path} in ${JSON.stringify(res.body.Problems)}`,
        );
      }
    });
  });
}
