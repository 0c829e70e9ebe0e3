// An agent's MCP and knowledge tools in the engine (agents.md "Tools"): MCP tools offered as
// <server>__<tool> (only the allowed ones), their calls yielded as mcpCall requests; knowledge
// passages numbered across the turn, and a text citing [n] said with its sources.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Action } from '../../bot-file.js';
import { botWith, Conversation } from '../../test-kit.js';
import type { AgentModelAnswer, AgentModelRequest, KnowledgeReply, McpToolsAnswer } from '../../types.js';

const ID = '33333333-3333-4333-8333-333333333333';
const call = (name: string, args: unknown): AgentModelAnswer => ({ status: 'OK', text: '', tokens: 1, toolCalls: [{ id: 'c1', name, arguments: JSON.stringify(args) }] });
const says = (text: string): AgentModelAnswer => ({ status: 'OK', text, toolCalls: [], tokens: 1 });

function agent(tools: unknown[]) {
  const chat = new Conversation(botWith([{ type: 'agent', id: ID, instructions: 'x', tools, onError: [{ type: 'text', text: 'failed {{agent_status}}' }] } as Action]));
  chat.start();
  return chat;
}

const crm: McpToolsAnswer = {
  tools: [
    { server: 'crm', name: 'find_customer', description: 'Find a customer', parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } },
    { server: 'crm', name: 'delete_customer', description: 'Delete', parameters: { type: 'object' } },
  ],
  unavailable: [],
};

test('mcp: the allowed tools of the server are offered as server__tool; a call is an mcpCall and its text goes back', () => {
  const chat = agent([{ type: 'mcp', server: 'crm', allow: ['find_customer'] }]);
  const turn = chat.turn(
    { kind: 'text', text: 'who am I' },
    { answers: [crm, call('crm__find_customer', { email: 'a@b.example' }), { ok: true, text: 'Ann, customer since 2019' }, says('You are Ann.')] },
  );
  assert.deepEqual(turn.requests[0], { kind: 'mcpTools', servers: ['crm'] });
  const model = turn.requests[1] as AgentModelRequest;
  assert.deepEqual(
    model.tools.map((t) => t.name),
    ['crm__find_customer'],
  );
  assert.deepEqual(turn.requests[2], { kind: 'mcpCall', server: 'crm', tool: 'find_customer', arguments: { email: 'a@b.example' }, timeoutMs: (turn.requests[2] as { timeoutMs: number }).timeoutMs });
  assert.equal((turn.requests[3] as AgentModelRequest).messages.at(-1)?.role, 'tool');
  assert.deepEqual((turn.requests[3] as AgentModelRequest).messages.at(-1), { role: 'tool', toolCallId: 'c1', content: 'Ann, customer since 2019' });
  assert.deepEqual(
    turn.parts.map((p) => p.Text),
    ['You are Ann.'],
  );
  assert.equal(turn.apiCalls, 3, 'two model calls and one MCP call');
});

test('mcp: a tool left out by allow is unknown to the model; a failed call is reported as an error', () => {
  const chat = agent([{ type: 'mcp', server: 'crm', allow: ['find_customer'] }]);
  const turn = chat.turn({ kind: 'text', text: 'x' }, { answers: [crm, call('crm__delete_customer', {}), says('No.')] });
  assert.deepEqual(
    turn.requests.map((r) => r.kind),
    ['mcpTools', 'agentModel', 'agentModel'],
  );
  const failed = chat.turn({ kind: 'text', text: 'y' }, { answers: [crm, call('crm__find_customer', { email: 'x' }), { ok: false, text: 'server down' }, says('Sorry.')] });
  assert.deepEqual((failed.requests[3] as AgentModelRequest).messages.at(-1), { role: 'tool', toolCallId: 'c1', content: '{"error":"server down"}' });
});

test('knowledge: passages numbered with their source; a text citing [n] is said with the sources it cites', () => {
  const chat = agent([{ type: 'knowledge' }]);
  const passages: KnowledgeReply = {
    status: 'ANSWERED',
    answer: null,
    sources: ['FAQ', 'Prices'],
    calledProvider: false,
    tokens: 0,
    passages: [
      { text: 'We repair e-bikes.', source: 'FAQ', url: null },
      { text: 'A service is 49 EUR.', source: 'Prices', url: 'https://shop.example/prices' },
    ],
  };
  const turn = chat.turn({ kind: 'text', text: 'price?' }, { answers: [call('knowledge', { query: 'service price' }), passages, says('A service is 49 EUR [2].')] });
  const request = turn.requests[1] as { kind: string; passagesOnly?: boolean; question: string };
  assert.equal(request.kind, 'knowledge');
  assert.equal(request.passagesOnly, true);
  assert.equal(request.question, 'service price');
  const result = JSON.parse(((turn.requests[2] as AgentModelRequest).messages.at(-1) as { content: string }).content);
  assert.deepEqual(result, {
    passages: [
      { n: 1, SourceName: 'FAQ', text: 'We repair e-bikes.' },
      { n: 2, SourceName: 'Prices', text: 'A service is 49 EUR.' },
    ],
  });
  assert.equal(turn.parts.length, 1);
  assert.equal(turn.parts[0].Text, 'A service is 49 EUR [2].');
  assert.deepEqual(
    turn.parts[0].Parts.map((p) => [p.Text, p.Url]),
    [['Prices', 'https://shop.example/prices']],
  );
});
