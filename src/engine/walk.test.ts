// One walker (issue 12): compile indexes exactly the actions that validation and id generation
// find, because all of them walk with engine/walk.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { supportBot } from '../../test/fixtures/invalid-bots.js';
import type { BotFile } from './bot-file.js';
import { botSchemaFor } from '../bots/schema.js';
import { forEachAction } from '../bots/walk.js';
import { compileBot } from './compile.js';
import { actionRegistry } from './registry.js';

const id = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function walkedIds(bot: unknown): string[] {
  const out: string[] = [];
  forEachAction(bot, actionRegistry, botSchemaFor(actionRegistry), (action) => {
    if (typeof action.type === 'string' && typeof action.id === 'string') out.push(action.id);
  });
  return out.sort();
}

test('compile indexes the ids the save-time walker finds, in the support bot', () => {
  const bot = supportBot();
  assert.ok(walkedIds(bot).length >= 7);
  assert.deepEqual([...compileBot(bot as BotFile).actionsById.keys()].sort(), walkedIds(bot));
});

test('an object shaped like an action where no action can be is not indexed by compile either', () => {
  const button = (n: number) => ({ type: 'button', id: id(n), text: 'b', onClick: [] });
  const bot = {
    format: 'colloquy/bot@1',
    name: 'Odd',
    behaviours: [
      {
        name: 'Main',
        start: true,
        interactions: [
          {
            name: 'Start',
            start: true,
            actions: [
              { type: 'callApi', method: 'GET', url: 'https://x.org', headers: { 'X-Button': button(1) } },
              { type: 'noSuchType', items: [button(2)] },
              { type: 'carousel', cards: [{ title: 'c', buttons: [button(3)], extra: button(4) }] },
              { type: 'tagSwitch', tag: 't', then: [button(5)], else: [{ type: 'buttons', text: 'x', buttons: [button(6)] }] },
            ],
          },
        ],
      },
    ],
  };
  assert.deepEqual(walkedIds(bot), [id(3), id(5), id(6)]);
  const compiled = compileBot(bot as unknown as BotFile);
  assert.deepEqual([...compiled.actionsById.keys()].sort(), [id(3), id(5), id(6)]);
  assert.equal(compiled.actionsById.get(id(3))!.container?.type, 'carousel');
  assert.equal(compiled.actionsById.get(id(5))!.container?.type, 'tagSwitch');
  assert.equal(compiled.actionsById.get(id(6))!.container?.type, 'buttons');
});
