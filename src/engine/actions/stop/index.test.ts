import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, say, started, texts } from '../../test-kit.js';

test('stop ends the turn here', () => {
  const [conversation, outcome] = started(botWith([say('one'), { type: 'stop' }, say('two')]));
  assert.deepEqual(texts(outcome), ['one']);
  assert.equal(outcome.endedBy, 'stop');
  assert.equal(conversation.where, 'Main/Start');
});

test('stop inside an operation list ends the whole turn', () => {
  const [, outcome] = started(botWith([{ type: 'tagSwitch', tag: 't', present: false, then: [{ type: 'stop' }] }, say('never')]));
  assert.deepEqual(outcome.parts, []);
  assert.equal(outcome.endedBy, 'stop');
});
