import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, say, started, summary } from '../../test-kit.js';

test('forget adds a forget effect and the turn continues', () => {
  const [, outcome] = started(botWith([say('Bye'), { type: 'forget' }, say('Forgotten')]));
  assert.deepEqual(outcome.effects, [{ kind: 'forget' }]);
  assert.deepEqual(summary(outcome), [
    [0, 'Bye', null, 100],
    [0, 'Forgotten', null, 100],
  ]);
  assert.equal(outcome.endedBy, 'done');
});
