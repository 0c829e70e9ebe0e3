import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { supportBot, type BotDoc } from '../../test/fixtures/invalid-bots.js';
import type { BotFile } from '../engine/bot-file.js';
import { assignIds } from './ids.js';
import { validateBotFile } from './validate.js';
import { forEachAction, type Obj } from './walk.js';
import { actionRegistry } from '../engine/registry.js';
import { botSchemaFor } from './schema.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** [path, id] of every button and input, in document order. */
function ids(bot: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  forEachAction(bot, actionRegistry, botSchemaFor(actionRegistry), (action: Obj, path) => {
    if (action.type === 'button' || action.type === 'input') out.push([path.join('.'), action.id]);
  });
  return out;
}

function withoutIds(bot: BotDoc): BotDoc {
  forEachAction(bot, actionRegistry, botSchemaFor(actionRegistry), (action) => delete action.id);
  return bot;
}

const menuButtons = (b: BotDoc) => b.behaviours[0].interactions[0].actions[2].buttons;

describe('assignIds', () => {
  it('gives every button and input a unique GUID, wherever nested, and the result validates', () => {
    const bot = withoutIds(supportBot());
    // an input inside a button inside a carousel card, and a button in a trigger
    bot.behaviours[0].interactions[1].actions[0].cards[0].buttons[0].onClick.unshift({
      type: 'input',
      expect: 'any',
      variable: 'why',
      onSuccess: [{ type: 'button', text: 'ok', onClick: [] }],
    });
    bot.triggers[1].actions.unshift({ type: 'button', text: 'Menu', onClick: [] });
    const result = assignIds(bot as BotFile);
    const found = ids(result);
    assert.equal(found.length, 10); // 7 in the support bot + 3 added
    for (const [path, id] of found) assert.match(String(id), GUID, path);
    assert.equal(new Set(found.map(([, id]) => id)).size, found.length);
    assert.deepEqual(validateBotFile(result).ok, true);
  });

  it('keeps the ids a file already has and does not touch its input', () => {
    const bot = supportBot();
    const before = structuredClone(bot);
    const result = assignIds(bot as BotFile);
    assert.deepEqual(ids(result), ids(before));
    assert.deepEqual(bot, before);
    assert.notEqual(result, bot);
  });

  it('reuses the previous draft ids for actions at the same place, even after reordering', () => {
    const previous = assignIds(supportBot() as BotFile);
    const edited = withoutIds(structuredClone(previous));
    edited.behaviours.reverse(); // positions are by name, not index
    edited.behaviours[0].interactions.reverse();
    edited.behaviours[0].interactions[0].name = 'Final Fallback'; // a renamed interaction keeps nothing
    const result = assignIds(edited as BotFile, previous);
    const byPath = (bot: BotFile) => {
      const map = new Map<string, unknown>();
      for (const b of bot.behaviours) for (const it of b.interactions) map.set(`${b.name}/${it.name}`, JSON.stringify(ids({ behaviours: [{ ...b, interactions: [it] }] }).map(([, id]) => id)));
      return map;
    };
    const was = byPath(previous);
    const now = byPath(result);
    for (const [where, value] of now) if (was.has(where)) assert.equal(value, was.get(where), where);
    assert.deepEqual(
      result.behaviours.map((b) => b.apiKey),
      [...previous.behaviours].reverse().map((b) => b.apiKey),
    );
  });

  it('never reuses an id that the new file already uses elsewhere', () => {
    const previous = supportBot();
    const edited = supportBot();
    menuButtons(edited).unshift({ type: 'button', text: 'New first button', onClick: [] });
    const result = assignIds(edited as BotFile, previous as BotFile);
    const all = ids(result).map(([, id]) => id);
    assert.equal(new Set(all).size, all.length);
    assert.equal(menuButtons(result)[1].id, menuButtons(previous)[0].id);
    assert.notEqual(menuButtons(result)[0].id, menuButtons(previous)[0].id);
  });

  it('gives behaviours an apiKey, keeping the previous one by name (case-insensitive)', () => {
    const first = assignIds(supportBot() as BotFile);
    const keys = first.behaviours.map((b) => b.apiKey);
    assert.equal(new Set(keys).size, 3);
    for (const key of keys) assert.equal(typeof key, 'string');
    const edited = supportBot();
    edited.behaviours[1].name = 'ORDERS';
    edited.behaviours[2].name = 'Humans';
    const second = assignIds(edited as BotFile, first);
    assert.equal(second.behaviours[0].apiKey, keys[0]);
    assert.equal(second.behaviours[1].apiKey, keys[1]);
    assert.notEqual(second.behaviours[2].apiKey, keys[2]);
  });

  it('follows needsId of the registry it is given', () => {
    const registry = new Map([...actionRegistry].map(([type, def]) => [type, { ...def, needsId: type === 'link' }]));
    const result = assignIds(supportBot() as BotFile, null, registry);
    assert.match(String(menuButtons(result)[3].id), GUID);
  });
});
