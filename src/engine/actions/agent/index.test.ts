// The `agent` action in the engine (agents.md): holding the conversation, the loop's requests and
// bounds (maxSteps, tool calls per answer, unknown tools, bad arguments, the turn's timeout),
// the tools' effects, budgets and accounting. The provider and tools are answered by the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { behaviour, Conversation, interaction, makeBot, say, texts, trigger } from '../../test-kit.js';
import type { Action } from '../../bot-file.js';
import type { AgentModelAnswer, AgentModelRequest, EngineRequest, RequestAnswer } from '../../types.js';

const ID = '11111111-1111-4111-8111-111111111111';
const text = (t: string, tokens = 10): AgentModelAnswer => ({ status: 'OK', text: t, toolCalls: [], tokens });
const calls = (...list: Array<[string, unknown]>): AgentModelAnswer => ({
  status: 'OK',
  text: '',
  tokens: 5,
  toolCalls: list.map(([name, args], i) => ({ id: `c${i}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) })),
});

const tools = [
  {
    type: 'http',
    name: 'order_status',
    description: 'Status of an order',
    parameters: { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{6}$' } }, required: ['order'] },
    request: { method: 'GET', url: 'https://shop.example/api/orders/{{order}}' },
  },
  { type: 'variable', name: 'remember_email', description: 'Store the e-mail', variable: 'email', schema: { type: 'string', format: 'email' } },
  { type: 'flow', name: 'book_repair', description: 'Start the booking', behaviour: 'Repairs', parameters: { type: 'object', properties: { bike: { type: 'string' } } } },
  { type: 'handover', description: 'A person', message: 'Connecting you.' },
];

function agentBot(extra: Partial<Action> = {}, settings: Record<string, unknown> = {}) {
  const agent = { type: 'agent', id: ID, instructions: 'You help {{company}}.', tools, variable: 'said', onError: [say('failed {{agent_status}}')], ...extra } as Action;
  return makeBot(
    [
      behaviour('Main', [interaction('Start', [say('Hi')]), interaction('Agent', [agent])], {
        triggers: [trigger('help', [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Agent' } as Action])],
      }),
      behaviour('Repairs', [interaction('Book', [say('Booking {{bike}}')])]),
    ],
    { triggers: [trigger('menu', [say('the menu')])], settings: { enableTypeSpeed: false, ai: settings } as never },
  );
}

/** Runs a text turn answering each request in order; returns the turn and the requests. */
function turnWith(chat: Conversation, input: string, answers: RequestAnswer[], now?: () => number) {
  return chat.turn({ kind: 'text', text: input }, { answers, now });
}

const modelRequests = (requests: EngineRequest[]) => requests.filter((r): r is AgentModelRequest => r.kind === 'agentModel');

test('the text that reaches the agent is its input; it answers, stores, and keeps the conversation from triggers', () => {
  const chat = new Conversation(agentBot(), { company: 'Spokes' });
  chat.start();
  const first = turnWith(chat, 'help', [text('Hello, how can I help?')]);
  assert.deepEqual(texts(first), ['Hello, how can I help?']);
  const [request] = modelRequests(first.requests);
  assert.equal(request.instructions, 'You help Spokes.');
  assert.equal(request.history, 20);
  assert.deepEqual(request.messages, [{ role: 'user', content: 'help' }]);
  assert.deepEqual(
    request.tools.map((t) => t.name),
    ['order_status', 'remember_email', 'book_repair', 'handover'],
  );
  assert.equal(first.state.variables.said, 'Hello, how can I help?');
  assert.equal(first.state.variables.agent_status, 'OK');
  assert.deepEqual(first.state.waiting, { actionId: ID, wrongAnswers: 0, agent: true });
  assert.equal(first.apiCalls, 1);
  assert.equal(first.aiTokens, 10);
  // "menu" is a bot trigger: while the agent holds the conversation it goes to the agent instead
  const second = turnWith(chat, 'menu', [text('Here is what I can do.')]);
  assert.deepEqual(texts(second), ['Here is what I can do.']);
  assert.equal(chat.where, 'Main/Agent');
});

test('reached without text (a forced position) the agent waits and the model is not called', () => {
  const chat = new Conversation(agentBot());
  const forced = chat.goTo('Main', 'Agent');
  assert.deepEqual(forced.requests, []);
  assert.equal(forced.state.waiting?.agent, true);
  const next = turnWith(chat, 'where is my order?', [text('Which order?')]);
  assert.deepEqual(texts(next), ['Which order?']);
});

test('an http tool call: the URL built with the URL-encoded argument, the result handed back, then the text', () => {
  const chat = new Conversation(agentBot());
  chat.goTo('Main', 'Agent');
  const turn = turnWith(chat, 'order 123456?', [calls(['order_status', { order: '123456' }]), { status: 200, body: '{"state":"shipped"}' }, text('It shipped.')]);
  assert.deepEqual(
    turn.requests.map((r) => r.kind),
    ['agentModel', 'http', 'agentModel'],
  );
  const http = turn.requests[1] as Extract<EngineRequest, { kind: 'http' }>;
  assert.equal(http.url, 'https://shop.example/api/orders/123456');
  assert.equal(http.method, 'GET');
  const second = modelRequests(turn.requests)[1];
  assert.deepEqual(second.messages.slice(1), [
    { role: 'assistant', content: null, toolCalls: [{ id: 'c0', name: 'order_status', arguments: '{"order":"123456"}' }] },
    { role: 'tool', toolCallId: 'c0', content: '{"status":200,"body":{"state":"shipped"}}' },
  ]);
  assert.deepEqual(texts(turn), ['It shipped.']);
  assert.equal(turn.apiCalls, 3, 'two model calls and one HTTP tool call');
  const trace = turn.effects.find((e) => e.kind === 'agentTrace');
  assert.deepEqual(trace && trace.kind === 'agentTrace' ? trace.steps.map((s) => [s.Kind, s.Name ?? null, s.Status]) : null, [
    ['model', null, 'OK'],
    ['tool', 'order_status', 'OK'],
    ['model', null, 'OK'],
  ]);
});

test('unknown tools, non-JSON and unfitting arguments go back to the model as errors; no call is made', () => {
  const chat = new Conversation(agentBot());
  chat.goTo('Main', 'Agent');
  const turn = turnWith(chat, 'hi', [calls(['delete_everything', {}], ['order_status', '{not json'], ['order_status', { order: '../../admin' }]), text('Sorry.')]);
  assert.deepEqual(
    turn.requests.map((r) => r.kind),
    ['agentModel', 'agentModel'],
  );
  const results = modelRequests(turn.requests)[1]
    .messages.filter((m) => m.role === 'tool')
    .map((m) => JSON.parse((m as { content: string }).content).error);
  assert.equal(results[0], 'unknown tool: delete_everything');
  assert.equal(results[1], 'arguments are not JSON');
  assert.match(results[2], /^arguments do not fit: \/order must match pattern/);
});

test('100 tool calls in one answer: 10 are made, the other 90 answered with an error', () => {
  const chat = new Conversation(agentBot());
  chat.goTo('Main', 'Agent');
  const many = calls(...Array.from({ length: 100 }, (): [string, unknown] => ['remember_email', { value: 'a@b.example' }]));
  const turn = turnWith(chat, 'hi', [many, text('Done.')]);
  const toolMessages = modelRequests(turn.requests)[1].messages.filter((m) => m.role === 'tool') as Array<{ content: string }>;
  assert.equal(toolMessages.length, 100);
  assert.equal(toolMessages.filter((m) => m.content === '{"ok":true}').length, 10);
  assert.equal(toolMessages.filter((m) => m.content.includes('at most 10 tool calls')).length, 90);
});

test('a model that loops on tools stops at maxSteps model calls: MAX_STEPS, onError, the agent keeps the conversation', () => {
  const chat = new Conversation(agentBot({ maxSteps: 3 }));
  chat.goTo('Main', 'Agent');
  const loop = calls(['remember_email', { value: 'a@b.example' }]);
  const turn = turnWith(chat, 'hi', [loop, loop, loop]);
  assert.equal(modelRequests(turn.requests).length, 3);
  assert.deepEqual(texts(turn), ['failed MAX_STEPS']);
  assert.equal(turn.state.waiting?.agent, true);
});

test('the turn timeout counts every call: past timeoutMs no further call, TIMEOUT', () => {
  const chat = new Conversation(agentBot({ timeoutMs: 1000 }));
  chat.goTo('Main', 'Agent');
  // each read of the clock is 100 ms later: the HTTP answer arrives past the second, the model is not asked again
  let clock = 0;
  const turn = turnWith(chat, 'hi', [calls(['order_status', { order: '123456' }]), { status: 200, body: '{}' }], () => (clock += 100));
  assert.deepEqual(
    turn.requests.map((r) => r.kind),
    ['agentModel', 'http'],
  );
  assert.deepEqual(texts(turn), ['failed TIMEOUT']);
});

test('variable tool: the value checked against its schema; flow tool: arguments become variables and the flow runs now', () => {
  const chat = new Conversation(agentBot());
  chat.goTo('Main', 'Agent');
  const bad = turnWith(chat, 'hi', [calls(['remember_email', { value: 'not an e-mail' }]), text('Which e-mail?')]);
  assert.equal(bad.state.variables.email, undefined);
  const flow = turnWith(chat, 'book it', [calls(['remember_email', { value: 'ann@example.org' }], ['book_repair', { bike: 'the red one' }])]);
  assert.equal(flow.state.variables.email, 'ann@example.org');
  assert.deepEqual(texts(flow), ['Booking the red one']);
  assert.equal(chat.where, 'Repairs/Book');
  assert.equal(flow.state.waiting, null);
  assert.equal(modelRequests(flow.requests).length, 1, 'the model is not called again');
});

test('handover tool: a request for an operator with the reason as a note; the agent lets go', () => {
  const chat = new Conversation(agentBot());
  chat.goTo('Main', 'Agent');
  const turn = turnWith(chat, 'a person please', [calls(['handover', { reason: 'wants a refund' }])]);
  assert.deepEqual(texts(turn), ['Connecting you.']);
  assert.deepEqual(
    turn.effects.filter((e) => e.kind === 'note' || e.kind === 'control'),
    [
      { kind: 'note', text: 'wants a refund' },
      { kind: 'control', mode: 'request' },
    ],
  );
  assert.equal(turn.endedBy, 'operator');
  assert.equal(turn.state.waiting, null);
});

test('the host of an http tool URL never comes from an argument', () => {
  const hostile = { type: 'http', name: 'fetch', description: 'x', parameters: { type: 'object', properties: { host: { type: 'string' } } }, request: { method: 'GET', url: 'https://{{host}}/x' } };
  const chat = new Conversation(agentBot({ tools: [hostile] }));
  chat.goTo('Main', 'Agent');
  const turn = turnWith(chat, 'hi', [calls(['fetch', { host: 'evil.example' }]), text('ok')]);
  assert.deepEqual(
    turn.requests.map((r) => r.kind),
    ['agentModel', 'agentModel'],
  );
  assert.match((modelRequests(turn.requests)[1].messages[2] as { content: string }).content, /host cannot come from an argument/);
});

test("past the conversation's tokens of the day the model is not called: BUDGET, onError", () => {
  const chat = new Conversation(agentBot({}, { maxTokensPerConversationDay: 30 }));
  chat.goTo('Main', 'Agent');
  assert.deepEqual(texts(turnWith(chat, 'one', [text('first', 40)])), ['first']);
  const over = turnWith(chat, 'two', []);
  assert.deepEqual(over.requests, []);
  assert.deepEqual(texts(over), ['failed BUDGET']);
  // the next day counts afresh
  assert.deepEqual(texts(turnWith(chat, 'three', [text('again', 1)], () => 86_400_000 * 2)), ['again']);
});

test('a failed or malformed model answer is ERROR; NOT_CONFIGURED counts no call', () => {
  const chat = new Conversation(agentBot());
  chat.goTo('Main', 'Agent');
  assert.deepEqual(texts(turnWith(chat, 'a', [{ status: 'ERROR', text: '', toolCalls: [], tokens: 0 }])), ['failed ERROR']);
  assert.deepEqual(texts(turnWith(chat, 'b', [{ nonsense: true } as never])), ['failed ERROR']);
  const none = turnWith(chat, 'c', [{ status: 'NOT_CONFIGURED', text: '', toolCalls: [], tokens: 0 }]);
  assert.deepEqual(texts(none), ['failed ERROR']);
  assert.equal(none.apiCalls, 0);
});

test('a click on a button of the agent interaction keeps the agent; a RESET lets it go', () => {
  const BUTTON = '22222222-2222-4222-8222-222222222222';
  const agent = { type: 'agent', id: ID, instructions: '', tools: [] } as Action;
  const button = { type: 'buttons', text: 'Pick', buttons: [{ type: 'button', id: BUTTON, text: 'Info', onClick: [say('info')] }] } as Action;
  const chat = new Conversation(makeBot([behaviour('Main', [interaction('Start', [button, agent])])]));
  chat.start();
  assert.equal(chat.state.waiting?.agent, true);
  chat.click(BUTTON);
  assert.equal(chat.state.waiting?.agent, true);
  chat.start();
  assert.equal(chat.state.waiting?.agent, true, 'RESET runs the start again, which reaches the agent anew');
});
