import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, started } from '../../test-kit.js';

test('link says a Type 17 part with Url', () => {
  const [, outcome] = started(botWith([{ type: 'link', text: 'Docs for {{who}}', url: 'https://x.org/{{who}}' }]), { who: 'ann' });
  assert.deepEqual(outcome.parts, [
    { Type: 17, Text: 'Docs for ann', Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Start', Parts: [], Url: 'https://x.org/ann' },
  ]);
});

test('a link without url is skipped', () => {
  const [, outcome] = started(botWith([{ type: 'link', text: 'nowhere' }]));
  assert.deepEqual(outcome.parts, []);
});
