import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from '../../bot-file.js';
import { runTurn } from '../../run-turn.js';
import { newConversationState } from '../../state.js';
import { botWith, drive, say, started, texts } from '../../test-kit.js';
import type { ConversationState, HttpAnswer } from '../../types.js';
import { pathKeys, pickFromJson } from './response-path.js';

const call: Action = {
  type: 'callApi',
  method: 'post',
  url: 'https://api.example.org/orders/{{order}}',
  headers: { Authorization: 'Bearer {{token}}', 'X-Fixed': 'yes' },
  body: '{"user":"{{user_id}}"}',
  responsePath: 'data.items[0].name',
  variable: 'item',
  onError: [say('The service failed ({{api_status}})')],
};

function stateWith(variables: Record<string, string>, bot = botWith([])): ConversationState {
  return { ...newConversationState(bot), variables };
}

test('a synchronous call yields an http request, then stores the picked value', () => {
  const bot = botWith([say('Looking'), call, say('Got {{item}}')]);
  const gen = runTurn(bot, stateWith({ order: '42', token: 't0k', user_id: 'u1' }), { kind: 'start' }, { now: () => 0, random: () => 0 });
  const first = gen.next();
  assert.equal(first.done, false);
  assert.deepEqual(first.value, {
    kind: 'http',
    method: 'POST',
    url: 'https://api.example.org/orders/42',
    headers: { Authorization: 'Bearer t0k', 'X-Fixed': 'yes' },
    body: '{"user":"u1"}',
    timeoutMs: 5000,
  });
  const last = gen.next({ status: 200, body: '{"data":{"items":[{"name":"x"}]}}' });
  assert.equal(last.done, true);
  if (!last.done) return;
  assert.deepEqual(texts(last.value), ['Looking', 'Got x']);
  assert.equal(last.value.state.variables.item, 'x');
  assert.equal(last.value.state.variables.api_status, '200');
  assert.equal(last.value.apiCalls, 1);
  assert.deepEqual(last.value.effects, []);
});

test('without responsePath the whole body is stored; objects picked are stored as JSON text', () => {
  const whole = drive(
    botWith([{ type: 'callApi', method: 'GET', url: 'https://x.org', variable: 'raw' }]),
    newConversationState(botWith([])),
    { kind: 'start' },
    {
      answers: [{ status: 201, body: 'plain text' }],
    },
  );
  assert.equal(whole.state.variables.raw, 'plain text');
  assert.equal(whole.requests[0].kind === 'http' && whole.requests[0].body, null);
  const picked = drive(
    botWith([{ type: 'callApi', method: 'GET', url: 'https://x.org', variable: 'v', responsePath: 'data' }]),
    newConversationState(botWith([])),
    { kind: 'start' },
    {
      answers: [{ status: 200, body: '{"data":{"a":[1,2]}}' }],
    },
  );
  assert.equal(picked.state.variables.v, '{"a":[1,2]}');
});

test('a non-2xx status sets api_status, keeps the body and runs onError', () => {
  const bot = botWith([{ ...call, responsePath: undefined }, say('after')]);
  const outcome = drive(bot, stateWith({ order: '1' }), { kind: 'start' }, { answers: [{ status: 404, body: 'not found' }] });
  assert.deepEqual(texts(outcome), ['The service failed (404)', 'after']);
  assert.equal(outcome.state.variables.item, 'not found');
});

test('TIMEOUT and ERROR set api_status, leave the variable alone and run onError', () => {
  for (const status of ['TIMEOUT', 'ERROR'] as const) {
    const outcome = drive(botWith([call]), stateWith({ item: 'before' }), { kind: 'start' }, { answers: [{ status, body: '' }] });
    assert.equal(outcome.state.variables.api_status, status);
    assert.equal(outcome.state.variables.item, 'before');
    assert.deepEqual(texts(outcome), [`The service failed (${status})`]);
  }
});

test('a responsePath that is not in the body unsets the variable', () => {
  const outcome = drive(botWith([call]), stateWith({ item: 'before' }), { kind: 'start' }, { answers: [{ status: 200, body: '{"data":{"items":[]}}' }] });
  assert.equal(Object.hasOwn(outcome.state.variables, 'item'), false);
  assert.deepEqual(texts(outcome), []);
});

test('a goTo in onError moves the conversation', () => {
  const bot = botWith([{ ...call, onError: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Down' }] }, say('skipped')], [{ name: 'Down', actions: [say('down')] }]);
  const outcome = drive(bot, stateWith({}), { kind: 'start' }, { answers: [{ status: 500, body: '' }] });
  assert.deepEqual(texts(outcome), ['down']);
});

test('timeoutMs: default 5000, at most 30000, and never past the 10 s turn guard', () => {
  const timeoutOf = (action: Partial<Action>, now: () => number = () => 0) => {
    const outcome = drive(botWith([{ type: 'callApi', method: 'GET', url: 'https://x.org', ...action }]), stateWith({}), { kind: 'start' }, { answers: [{ status: 200, body: '' }], now });
    const request = outcome.requests[0];
    return request.kind === 'http' ? request.timeoutMs : -1;
  };
  assert.equal(timeoutOf({}), 5000);
  assert.equal(timeoutOf({ timeoutMs: 1200 }), 1200);
  assert.equal(timeoutOf({ timeoutMs: 90000 }), 10000); // capped to 30000, then to the 10 s left
  let t = 0;
  const clock = () => {
    const value = t;
    t += 3000; // every reading of the clock is 3 s later
    return value;
  };
  // turn start 0, guard check 3000, time left read at 6000 → 4000 ms left
  assert.equal(timeoutOf({ timeoutMs: 30000 }, clock), 4000);
});

test('the 10 s guard counts the time spent waiting for the answer', () => {
  let now = 0;
  let readings = 0;
  // the turn starts at 0 (first reading), the callApi runs at 7 s
  const clock = () => (readings++ === 0 ? 0 : now);
  const bot = botWith([call, say('too late')]);
  const gen = runTurn(bot, stateWith({}), { kind: 'start' }, { now: clock, random: () => 0 });
  now = 7000;
  const request = gen.next().value;
  assert.equal(typeof request === 'object' && 'timeoutMs' in request && request.timeoutMs, 3000);
  now = 10_000;
  const last = gen.next({ status: 200, body: '{}' } satisfies HttpAnswer);
  assert.equal(last.done, true);
  if (!last.done) return;
  assert.deepEqual(last.value.parts, []);
  assert.equal(last.value.endedBy, 'guard');
});

test('async: no yield, an asyncHttp effect instead; still counted', () => {
  const bot = botWith([{ ...call, async: true, timeoutMs: 45000 }, say('went on')]);
  const [, outcome] = started(bot, { order: '7', token: 'k', user_id: 'u' });
  assert.deepEqual(outcome.requests, []);
  assert.deepEqual(outcome.effects, [
    {
      kind: 'asyncHttp',
      method: 'POST',
      url: 'https://api.example.org/orders/7',
      headers: { Authorization: 'Bearer k', 'X-Fixed': 'yes' },
      body: '{"user":"u"}',
      timeoutMs: 30000,
    },
  ]);
  assert.equal(outcome.apiCalls, 1);
  assert.equal(outcome.state.variables.api_status, undefined);
  assert.deepEqual(texts(outcome), ['went on']);
});

test('every run counts in apiCalls', () => {
  const bot = botWith([call, call, { ...call, async: true }]);
  const outcome = drive(
    bot,
    stateWith({}),
    { kind: 'start' },
    {
      answers: [
        { status: 500, body: '' },
        { status: 200, body: '{}' },
      ],
    },
  );
  assert.equal(outcome.apiCalls, 3);
  assert.equal(outcome.requests.length, 2);
});

test('an unexpected answer from the caller counts as ERROR', () => {
  const outcome = drive(botWith([call]), stateWith({}), { kind: 'start' }, { answers: ['not an http answer'] });
  assert.equal(outcome.state.variables.api_status, 'ERROR');
});

test('responsePath parsing', () => {
  assert.deepEqual(pathKeys('data.items[0].name'), ['data', 'items', '0', 'name']);
  assert.deepEqual(pathKeys('[1][0]'), ['1', '0']);
  assert.equal(pickFromJson('{"a":{"b":[10,20]}}', 'a.b[1]'), '20');
  assert.equal(pickFromJson('{"a":true}', 'a'), 'true');
  assert.equal(pickFromJson('{"a":null}', 'a'), null);
  assert.equal(pickFromJson('[{"n":"x"}]', '[0].n'), 'x');
  assert.equal(pickFromJson('not json', 'a'), null);
  assert.equal(pickFromJson('{"a":"s"}', 'a.length'), null);
});

test('a lone surrogate escape in the answer is picked as U+FFFD (decisions.md "Requests")', () => {
  assert.equal(pickFromJson('{"data":{"name":"cut \\ud83d"}}', 'data.name'), 'cut \ufffd');
});
