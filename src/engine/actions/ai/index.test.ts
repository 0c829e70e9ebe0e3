// The `ai` action in the engine: the request it yields, how each mode reads the answer, accounting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { botWith, Conversation } from '../../test-kit.js';
import type { AiAnswer } from '../../types.js';
import { MAX_SAID_BYTES } from '../../turn.js';
import { DEFAULT_AI_MAX_TOKENS, MAX_AI_ANSWER_BYTES, MAX_AI_MAX_TOKENS } from './index.js';

const ok = (text: string, tokens = 3): AiAnswer => ({ status: 'OK', text, tokens });
const onError = [{ type: 'text', text: 'failed: {{ai_status}}' }];

function run(action: Record<string, unknown>, answer: AiAnswer | undefined) {
  const bot = botWith([{ type: 'ai', onError, ...action } as never, { type: 'text', text: 'next' }]);
  const chat = new Conversation(bot, { last_user_text: 'hi there', company: 'ACME' }, { answers: answer ? [answer] : [] });
  return chat.turn({ kind: 'start' });
}

test('reply: yields one ai request with the rendered instructions, the last user text and the defaults', () => {
  const turn = run({ mode: 'reply', instructions: 'Help {{company}}', say: true, variable: 'out' }, ok('Sure.'));
  // said (reply mode with say): the answer may be shown as it streams (agents.md "Streaming")
  assert.deepEqual(turn.requests, [{ kind: 'ai', instructions: 'Help ACME', input: 'hi there', history: 10, maxTokens: 1024, temperature: null, timeoutMs: 15_000, said: true }]);
  assert.deepEqual(
    turn.parts.map((p) => p.Text),
    ['Sure.', 'next'],
  );
  assert.equal(turn.state.variables.out, 'Sure.');
  assert.equal(turn.state.variables.ai_status, 'OK');
  assert.equal(turn.apiCalls, 1);
  assert.equal(turn.aiTokens, 3);
});

test('classify: one of the labels, case as in the file; anything else ERROR', () => {
  assert.equal(run({ mode: 'classify', labels: ['Billing'], variable: 't' }, ok('{"label":"billing"}')).state.variables.t, 'Billing');
  const wrong = run({ mode: 'classify', labels: ['Billing'], variable: 't' }, ok('{"label":"refund"}'));
  assert.deepEqual(
    wrong.parts.map((p) => p.Text),
    ['failed: ERROR', 'next'],
  );
  assert.equal(wrong.state.variables.t, undefined);
});

test('extract: found fields become variables; null skipped; wrong shapes are ERROR', () => {
  const turn = run({ mode: 'extract', fields: { email: 'e-mail', age: 'age' } }, ok('{"email":"a@b.c","age":41}'));
  assert.equal(turn.state.variables.email, 'a@b.c');
  assert.equal(turn.state.variables.age, '41');
  assert.equal(run({ mode: 'extract', fields: { email: 'e' } }, ok('not json')).state.variables.ai_status, 'ERROR');
});

test('TIMEOUT, ERROR and NOT_CONFIGURED run onError; NOT_CONFIGURED is no call; a malformed answer is ERROR', () => {
  for (const status of ['TIMEOUT', 'ERROR'] as const) {
    const turn = run({ mode: 'reply' }, { status, text: '', tokens: 0 });
    assert.deepEqual(
      turn.parts.map((p) => p.Text),
      [`failed: ${status}`, 'next'],
    );
    assert.equal(turn.apiCalls, 1);
  }
  const none = run({ mode: 'reply' }, { status: 'NOT_CONFIGURED', text: '', tokens: 0 });
  assert.equal(none.apiCalls, 0);
  assert.equal(run({ mode: 'reply' }, { nonsense: true } as never).state.variables.ai_status, 'ERROR');
});

test('reply: a long answer is cut to 64 KiB (never inside a character), said and stored alike; maxTokens defaults and is clamped', () => {
  const long = 'é'.repeat(40_000); // 80,000 bytes
  const turn = run({ mode: 'reply', say: true, variable: 'out' }, ok(long));
  assert.equal(Buffer.byteLength(turn.state.variables.out), MAX_AI_ANSWER_BYTES);
  assert.equal(turn.parts[0].Text, turn.state.variables.out);
  assert.equal(turn.requests[0].kind === 'ai' && turn.requests[0].maxTokens, DEFAULT_AI_MAX_TOKENS);
  // a version saved when 32,000 was allowed still asks for no more than the cap
  const old = run({ mode: 'reply', maxTokens: 32_000 }, ok('x'));
  assert.equal(old.requests[0].kind === 'ai' && old.requests[0].maxTokens, MAX_AI_MAX_TOKENS);
});

test('a turn says at most MAX_SAID_BYTES: further parts are dropped, with one diagnostic', () => {
  const steps = Array.from({ length: 10 }, () => ({ type: 'ai', mode: 'reply', say: true }) as never);
  const bot = botWith([...steps, { type: 'text', text: 'last' }]);
  const answers = steps.map(() => ok('a'.repeat(MAX_AI_ANSWER_BYTES)));
  const turn = new Conversation(bot, {}, { answers }).turn({ kind: 'start' });
  const said = turn.parts.reduce((sum, p) => sum + Buffer.byteLength(JSON.stringify(p)), 0);
  assert.equal(turn.parts.length, 3, 'three parts of 64 KiB fit in 256 KiB, a fourth does not');
  assert.ok(said <= MAX_SAID_BYTES);
  assert.equal(turn.parts.at(-1)!.Text!.length, MAX_AI_ANSWER_BYTES, 'the small last text is dropped too: parts stay in order');
  assert.equal(turn.diagnostics.length, 1);
  assert.match(turn.diagnostics[0].error, /parts dropped/);
});
