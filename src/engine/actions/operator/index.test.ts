import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, interaction, say, started, summary } from '../../test-kit.js';

test('request: a control effect, and nothing more of the interaction runs', () => {
  const [conversation, outcome] = started(botWith([say('Calling someone'), { type: 'operator', mode: 'request' }, say('never')]));
  assert.deepEqual(summary(outcome), [[0, 'Calling someone', null, 200]]);
  assert.deepEqual(outcome.effects, [{ kind: 'control', mode: 'request' }]);
  assert.equal(outcome.endedBy, 'operator');
  assert.equal(conversation.where, 'Main/Start');
});

test('takeover carries the operator e-mail (a template) and ends the turn', () => {
  const [, outcome] = started(botWith([{ type: 'operator', mode: 'takeover', operator: '{{agent}}@example.org' }, say('never')]), { agent: 'bob' });
  assert.deepEqual(outcome.effects, [{ kind: 'control', mode: 'takeover', operator: 'bob@example.org' }]);
  assert.deepEqual(outcome.parts, []);
  assert.equal(outcome.endedBy, 'operator');
});

test('bot hands control back and the turn goes on', () => {
  const [, outcome] = started(botWith([{ type: 'operator', mode: 'bot' }, say('back')]));
  assert.deepEqual(outcome.effects, [{ kind: 'control', mode: 'bot' }]);
  assert.deepEqual(summary(outcome), [[0, 'back', null, 100]]);
  assert.equal(outcome.endedBy, 'done');
});

test('a request inside an operation list also ends the turn', () => {
  const bot = botWith([{ type: 'tagSwitch', tag: 'x', present: false, then: [{ type: 'operator', mode: 'request' }, say('never')] }, say('never either')], [interaction('Other', [])]);
  const [, outcome] = started(bot);
  assert.deepEqual(outcome.parts, []);
  assert.equal(outcome.endedBy, 'operator');
});

test('an unknown mode is skipped', () => {
  const [, outcome] = started(botWith([{ type: 'operator', mode: 'party' }, say('on')]));
  assert.deepEqual(outcome.effects, []);
  assert.equal(outcome.endedBy, 'done');
});
