import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from '../../bot-file.js';
import { botWith, interaction, started, summary } from '../../test-kit.js';

const K = 'cccccccc-cccc-4ccc-8ccc-000000000001';
const T = 'cccccccc-cccc-4ccc-8ccc-000000000002';

function carousel(extra: Partial<Action> = {}): Action {
  return {
    type: 'carousel',
    ...extra,
    cards: [
      {
        title: 'Kettle',
        subtitle: '1.7 l',
        imageUrl: 'https://x.org/k.jpg',
        buttons: [{ type: 'button', id: K, text: 'Kettle', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Chosen' }] }],
      },
      {
        title: 'Toaster',
        buttons: [
          { type: 'button', id: T, text: 'Toaster', onClick: [] },
          { type: 'link', text: 'Specs', url: 'https://x.org/t' },
        ],
      },
    ],
  };
}

const chosen = interaction('Chosen', [{ type: 'text', text: 'You chose the {{product}} ({{last_command}})' }]);

test('carousel says a Type 5 part with Type 14 cards holding their buttons', () => {
  const [, outcome] = started(botWith([carousel({ variable: 'product' })], [chosen]));
  const names = { BehaviourName: 'Main', InteractionName: 'Start' };
  assert.deepEqual(outcome.parts, [
    {
      Type: 5,
      Text: null,
      Command: null,
      TypeDelay: 0,
      ...names,
      Parts: [
        {
          Type: 14,
          Text: null,
          Command: null,
          TypeDelay: 0,
          ...names,
          Parts: [{ Type: 1, Text: 'Kettle', Command: K, TypeDelay: 0, ...names, Parts: [] }],
          Title: 'Kettle',
          Subtitle: '1.7 l',
          ImageUrl: 'https://x.org/k.jpg',
        },
        {
          Type: 14,
          Text: null,
          Command: null,
          TypeDelay: 0,
          ...names,
          Parts: [
            { Type: 1, Text: 'Toaster', Command: T, TypeDelay: 0, ...names, Parts: [] },
            { Type: 17, Text: 'Specs', Command: null, TypeDelay: 0, ...names, Parts: [], Url: 'https://x.org/t' },
          ],
          Title: 'Toaster',
          Subtitle: null,
          ImageUrl: null,
        },
      ],
    },
  ]);
});

test('a card button click stores its text in the carousel variable and in last_command', () => {
  const [conversation] = started(botWith([carousel({ variable: 'product' })], [chosen]));
  const outcome = conversation.click(K);
  assert.deepEqual(summary(outcome), [[0, 'You chose the Kettle (Kettle)', null, 500]]);
  assert.equal(conversation.variables.product, 'Kettle');
  assert.equal(conversation.variables.last_command, 'Kettle');
});

test('without variable the click is stored in last_command only', () => {
  const [conversation] = started(botWith([carousel()], [chosen]));
  conversation.click(T);
  assert.equal(conversation.variables.last_command, 'Toaster');
  assert.equal(conversation.variables.product, undefined);
  assert.equal(conversation.where, 'Main/Start');
});
