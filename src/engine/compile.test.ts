import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { BotFile } from './bot-file.js';
import { compileBot, findBehaviour, findInteraction, resolvePosition, startInteraction } from './compile.js';
import { newConversationState } from './state.js';

const file = JSON.parse(readFileSync(new URL('../../assets/support.bot.json', import.meta.url), 'utf8')) as BotFile;
const id = (n: string) => `6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e${n}`;

test('indexes behaviours and interactions by lower-cased name, with starts and fallbacks', () => {
  const bot = compileBot(file);
  assert.deepEqual([...bot.behaviours.keys()], ['main', 'orders', 'escalation']);
  assert.equal(bot.startBehaviour?.name, 'Main');
  assert.equal(startInteraction(bot)?.name, 'Welcome');
  const orders = findBehaviour(bot, 'ORDERS')!;
  assert.equal(orders.start?.name, 'Ask Number');
  assert.equal(orders.fallback?.name, 'Orders Fallback');
  assert.equal(findInteraction(orders, 'lookup')?.name, 'Lookup');
  assert.equal(findBehaviour(bot, 'nope'), null);
  assert.equal(resolvePosition(bot, { behaviour: 'main', interaction: 'PRODUCTS' })?.enableUserChat, false);
  assert.equal(resolvePosition(bot, { behaviour: 'Main', interaction: 'Anything Else' })?.enableUserChat, true);
  assert.equal(resolvePosition(bot, { behaviour: 'Main', interaction: 'Gone' }), null);
  assert.equal(bot.triggers.length, 5); // two text triggers, then three intent triggers
  assert.equal(orders.triggers[0].variable, 'order_number');
  assert.equal(orders.triggers[0].matches('#123456'), true);
});

test('indexes every action with an id, nested anywhere, with where it lives', () => {
  const bot = compileBot(file);
  assert.deepEqual([...bot.actionsById.keys()].sort(), ['01', '02', '03', '11', '12', '21', '22'].map(id));
  const kettle = bot.actionsById.get(id('11'))!;
  assert.equal(kettle.action.text, 'Kettle');
  assert.equal(kettle.interaction?.name, 'Products');
  assert.equal(kettle.behaviour?.name, 'Main');
  assert.equal(kettle.container?.type, 'carousel');
  assert.equal(bot.actionsById.get(id('01'))!.container?.type, 'buttons');
  assert.equal(bot.actionsById.get(id('21'))!.container, null);
});

test('ids inside triggers, operation lists and buttons are indexed; trigger actions have no interaction', () => {
  const bot = compileBot({
    format: 'colloquy/bot@1',
    name: 'Nested',
    triggers: [{ match: 'x', actions: [{ type: 'button', id: 'in-bot-trigger', text: 'b', onClick: [] }] }],
    behaviours: [
      {
        name: 'B',
        start: true,
        apiKey: 'key-b',
        triggers: [{ match: 'y', actions: [{ type: 'input', id: 'in-behaviour-trigger', expect: 'any', variable: 'v', onSuccess: [] }] }],
        interactions: [
          {
            name: 'I',
            start: true,
            actions: [
              {
                type: 'variableSwitch',
                variable: 'v',
                criteria: 'empty',
                then: [{ type: 'button', id: 'outer', text: 'o', onClick: [{ type: 'input', id: 'inner', expect: 'any', variable: 'w', onSuccess: [] }] }],
              },
            ],
          },
        ],
      },
    ],
  });
  assert.equal(bot.actionsById.get('in-bot-trigger')?.interaction, null);
  assert.equal(bot.actionsById.get('in-bot-trigger')?.behaviour, null);
  assert.equal(bot.actionsById.get('in-behaviour-trigger')?.behaviour?.name, 'B');
  assert.equal(bot.actionsById.get('in-behaviour-trigger')?.interaction, null);
  assert.equal(bot.actionsById.get('outer')?.container?.type, 'variableSwitch');
  assert.equal(bot.actionsById.get('inner')?.container?.id, 'outer');
  assert.equal(bot.actionsById.get('inner')?.interaction?.name, 'I');
  assert.deepEqual([...bot.behaviourByApiKey], [['key-b', 'B']]);
});

test('settings and default variables', () => {
  const bot = compileBot(file);
  assert.equal(bot.enableTypeSpeed, true);
  assert.equal(bot.wordsPerMinute, 600);
  assert.deepEqual(bot.defaultVariables, { company: 'ACME' });
  const bare = compileBot({ format: 'colloquy/bot@1', name: 'Bare', behaviours: [] });
  assert.equal(bare.enableTypeSpeed, false);
  assert.equal(bare.wordsPerMinute, 200);
  assert.deepEqual(newConversationState(bot, { user_id: 'u', channel: 'custom' }), {
    v: 1,
    position: null,
    previous: null,
    bookmark: null,
    variables: { company: 'ACME', user_id: 'u', channel: 'custom' },
    tags: [],
    privacy: {},
    waiting: null,
  });
});

test('without start flags the first behaviour and interaction stand in; duplicate names keep the first', () => {
  const bot = compileBot({
    format: 'colloquy/bot@1',
    name: 'Loose',
    behaviours: [
      {
        name: 'A',
        interactions: [
          { name: 'One', actions: [] },
          { name: 'one', actions: [] },
        ],
      },
      { name: 'a', interactions: [] },
    ],
  });
  assert.equal(bot.behaviours.size, 1);
  assert.equal(startInteraction(bot)?.name, 'One');
  assert.equal(bot.startBehaviour?.interactions.size, 1);
});
