import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, started, summary } from '../../test-kit.js';

test('delay says a Type 25 part whose TypeDelay is its ms, even with typing speed off', () => {
  const on = started(
    botWith([
      { type: 'delay', ms: 1500 },
      { type: 'text', text: 'done' },
    ]),
  )[1];
  assert.deepEqual(summary(on), [
    [25, null, null, 1500],
    [0, 'done', null, 100],
  ]);
  const off = started(botWith([{ type: 'delay', ms: 700 }], [], { settings: { enableTypeSpeed: false } }))[1];
  assert.deepEqual(off.parts, [{ Type: 25, Text: null, Command: null, TypeDelay: 700, BehaviourName: 'Main', InteractionName: 'Start', Parts: [] }]);
});

test('a delay without a valid ms is skipped', () => {
  const [, outcome] = started(botWith([{ type: 'delay' }, { type: 'delay', ms: -5 }, { type: 'delay', ms: 'x' }]));
  assert.deepEqual(outcome.parts, []);
});
