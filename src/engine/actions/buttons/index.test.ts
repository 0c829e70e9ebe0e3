import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, interaction, say, started, summary } from '../../test-kit.js';

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const bot = botWith(
  [
    {
      type: 'buttons',
      text: 'What can I do for you?',
      buttons: [
        { type: 'button', id: A, text: 'Orders', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Orders' }] },
        { type: 'link', text: 'Help', url: 'https://x.org/help' },
        { type: 'text', text: 'not a button: left out' },
      ],
    },
  ],
  [interaction('Orders', [say('Your orders')])],
);

test('buttons says a Type 13 part with its buttons and links as child parts', () => {
  const [, outcome] = started(bot);
  const names = { BehaviourName: 'Main', InteractionName: 'Start' };
  assert.deepEqual(outcome.parts, [
    {
      Type: 13,
      Text: 'What can I do for you?',
      Command: null,
      TypeDelay: 600,
      ...names,
      Parts: [
        { Type: 1, Text: 'Orders', Command: A, TypeDelay: 0, ...names, Parts: [] },
        { Type: 17, Text: 'Help', Command: null, TypeDelay: 0, ...names, Parts: [], Url: 'https://x.org/help' },
      ],
    },
  ]);
});

test('a button inside buttons is clickable by its id', () => {
  const [conversation] = started(bot);
  assert.deepEqual(summary(conversation.click(A)), [[0, 'Your orders', null, 200]]);
  assert.equal(conversation.variables.last_command, 'Orders');
  assert.equal(conversation.where, 'Main/Orders');
});
