// Ids on save (bot-format.md "Actions"): buttons and inputs carry a GUID that button payloads and
// waiting inputs refer to, so a missing id is generated, and one that existed in the previous draft
// at the same place is reused: re-uploading a file written without ids keeps old payloads valid.
// Behaviours get an apiKey (ForcedBehaviourKey, DefaultBehaviour.APIKey) the same way.

import { randomUUID } from 'node:crypto';
import type { BotFile } from '../engine/bot-file.js';
import { actionRegistry } from '../engine/registry.js';
import { botSchemaFor, type ActionRegistry } from './schema.js';
import { forEachAction, isObj, type ActionScope, type Obj, type Segment } from './walk.js';

/**
 * Where an action sits, independent of behaviour and interaction order: the behaviour and
 * interaction names (case-insensitive, as at run time), the path inside them, and the type.
 * Null when the action's container has no usable name.
 */
function positionKey(action: Obj, path: Segment[], scope: ActionScope): string | null {
  const parts: string[] = [];
  for (const container of [scope.behaviour, scope.interaction]) {
    if (!container) continue;
    if (typeof container.node.name !== 'string') return null;
    parts.push(container.node.name.toLowerCase());
  }
  return JSON.stringify([...parts, path.slice(scope.base.length), action.type]);
}

function newId(used: Set<string>): string {
  let id = randomUUID();
  while (used.has(id)) id = randomUUID(); // never in practice; keeps the uniqueness promise absolute
  return id;
}

/** Prefer the previous draft's value unless something else in the new file already uses it. */
function pick(previous: string | undefined, used: Set<string>): string {
  const id = previous !== undefined && !used.has(previous.toLowerCase()) ? previous : newId(used);
  used.add(id.toLowerCase());
  return id;
}

/**
 * A copy of `bot` where every action whose type needs an id has one, and every behaviour has an
 * apiKey. Meant for a validated file; anything oddly shaped is left as it is.
 */
export function assignIds(bot: BotFile, previousDraft?: BotFile | null, registry: ActionRegistry = actionRegistry): BotFile {
  const copy = structuredClone(bot);
  const schema = botSchemaFor(registry);
  const needsId = (action: Obj): boolean => typeof action.type === 'string' && registry.get(action.type)?.needsId === true;

  const previousIds = new Map<string, string>();
  if (previousDraft) {
    forEachAction(previousDraft, registry, schema, (action, path, scope) => {
      const key = positionKey(action, path, scope);
      if (key && typeof action.id === 'string' && action.id !== '' && !previousIds.has(key)) previousIds.set(key, action.id);
    });
  }

  // Ids already in the new file are reserved first, so a reused id never collides with one of them.
  const used = new Set<string>();
  forEachAction(copy, registry, schema, (action) => {
    if (typeof action.id === 'string') used.add(action.id.toLowerCase());
  });
  forEachAction(copy, registry, schema, (action, path, scope) => {
    if (!needsId(action) || (action.id !== undefined && action.id !== '')) return;
    const key = positionKey(action, path, scope);
    action.id = pick(key ? previousIds.get(key) : undefined, used);
  });

  assignApiKeys(copy, previousDraft);
  return copy;
}

function assignApiKeys(bot: BotFile, previousDraft: BotFile | null | undefined): void {
  if (!Array.isArray(bot.behaviours)) return;
  const previousKeys = new Map<string, string>();
  for (const b of previousDraft?.behaviours ?? []) {
    if (isObj(b) && typeof b.name === 'string' && typeof b.apiKey === 'string' && b.apiKey !== '') {
      if (!previousKeys.has(b.name.toLowerCase())) previousKeys.set(b.name.toLowerCase(), b.apiKey);
    }
  }
  const used = new Set<string>();
  for (const b of bot.behaviours) if (isObj(b) && typeof b.apiKey === 'string') used.add(b.apiKey.toLowerCase());
  for (const b of bot.behaviours) {
    if (!isObj(b) || (b.apiKey !== undefined && b.apiKey !== '')) continue;
    b.apiKey = pick(typeof b.name === 'string' ? previousKeys.get(b.name.toLowerCase()) : undefined, used);
  }
}
