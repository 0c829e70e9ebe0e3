// A turn decided again after losing a write race replays the answers it already got (drive-turn.ts):
// an agent's model calls and tool calls are made once, whatever the clock says the second time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Action } from '../engine/bot-file.js';
import { botWith } from '../engine/test-kit.js';
import { newConversationState } from '../engine/state.js';
import { driveTurn, type AnswerMemo, type RequestHandlers } from './drive-turn.js';

const ID = '44444444-4444-4444-8444-444444444444';

test('a retried agent turn repeats no model or HTTP call', async () => {
  const tool = { type: 'http', name: 'status', description: 'x', parameters: { type: 'object' }, request: { method: 'GET', url: 'https://shop.example/s' } };
  const bot = botWith([{ type: 'agent', id: ID, instructions: 'x', tools: [tool] } as Action]);
  const calls = { model: 0, http: 0 };
  const handlers = {
    agentModel: async () =>
      calls.model++ === 0 ? { status: 'OK', text: '', tokens: 3, toolCalls: [{ id: 'c', name: 'status', arguments: '{}' }] } : { status: 'OK', text: 'Fine.', tokens: 2, toolCalls: [] },
    http: async () => (calls.http++, { status: 200, body: '{"ok":true}' }),
  } as unknown as RequestHandlers;
  const memo: AnswerMemo = new Map();
  // the agent holds the conversation: the text is its
  const state = { ...newConversationState(bot), position: { behaviour: 'Main', interaction: 'Start' }, waiting: { actionId: ID, wrongAnswers: 0, agent: true as const } };
  const first = await driveTurn(bot, state, { kind: 'text', text: 'hi' }, { now: () => 1_000, random: () => 0 }, handlers, memo);
  // the retry runs later: the time left differs, the calls are the same ones
  const again = await driveTurn(bot, state, { kind: 'text', text: 'hi' }, { now: () => 5_000, random: () => 0 }, handlers, memo);
  assert.deepEqual(calls, { model: 2, http: 1 });
  assert.deepEqual(
    first.parts.map((p) => p.Text),
    ['Fine.'],
  );
  assert.deepEqual(
    again.parts.map((p) => p.Text),
    ['Fine.'],
  );
});
