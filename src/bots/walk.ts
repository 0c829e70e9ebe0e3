// Finds every action in a bot document: the bot's and each behaviour's triggers and every
// interaction's actions, each list walked by the engine's one action walker (engine/walk.ts).

import { isObj, walkActions, type Obj, type Segment } from '../engine/walk.js';
import type { ActionRegistry, JsonSchema } from './schema.js';

export { isObj, type Obj, type Segment } from '../engine/walk.js';

export interface ActionScope {
  /** the behaviour the action belongs to; absent for bot-wide triggers */
  behaviour?: { index: number; node: Obj };
  /** the interaction the action belongs to; absent for triggers */
  interaction?: { index: number; node: Obj };
  /** path of the behaviour (or interaction) the action belongs to, or [] for bot-wide triggers */
  base: Segment[];
}

/** See engine/walk.ts ActionVisitor; `scope` says where in the file the action's list is. */
export type ActionVisitor = (action: Obj, path: Segment[], scope: ActionScope, embedded: boolean) => void;

function visitTriggers(triggers: unknown, path: Segment[], scope: ActionScope, registry: ActionRegistry, defs: Obj, visit: ActionVisitor): void {
  if (!Array.isArray(triggers)) return;
  triggers.forEach((t, i) => {
    if (isObj(t)) walkActions(t.actions, [...path, i, 'actions'], registry, (a, p, embedded) => visit(a, p, scope, embedded), defs);
  });
}

/** Calls `visit` for every action object of the document, parents before their operations. */
export function forEachAction(doc: unknown, registry: ActionRegistry, schema: JsonSchema, visit: ActionVisitor): void {
  if (!isObj(doc)) return;
  const defs = isObj(schema.$defs) ? schema.$defs : {};
  visitTriggers(doc.triggers, ['triggers'], { base: [] }, registry, defs, visit);
  if (!Array.isArray(doc.behaviours)) return;
  doc.behaviours.forEach((b, bi) => {
    if (!isObj(b)) return;
    const behaviour = { index: bi, node: b };
    const bPath: Segment[] = ['behaviours', bi];
    visitTriggers(b.triggers, [...bPath, 'triggers'], { behaviour, base: bPath }, registry, defs, visit);
    if (!Array.isArray(b.interactions)) return;
    b.interactions.forEach((it, ii) => {
      if (!isObj(it)) return;
      const iPath: Segment[] = [...bPath, 'interactions', ii];
      const scope: ActionScope = { behaviour, interaction: { index: ii, node: it }, base: iPath };
      walkActions(it.actions, [...iPath, 'actions'], registry, (a, p, embedded) => visit(a, p, scope, embedded), defs);
    });
  });
}
