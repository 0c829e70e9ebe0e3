// Finds every action in a bot document, however deeply nested (operation lists, buttons lists,
// carousel cards, triggers). Which fields of an action hold further actions is read from the action
// type's own schema fragment, so a new action type needs no change here. The document is never
// trusted: anything that is not shaped as expected is skipped.

import { actionDefName, type ActionRegistry, type JsonSchema } from './schema.js';

export type Segment = string | number;
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ActionScope {
  /** the behaviour the action belongs to; absent for bot-wide triggers */
  behaviour?: { index: number; node: Obj };
  /** the interaction the action belongs to; absent for triggers */
  interaction?: { index: number; node: Obj };
  /** path of the behaviour (or interaction) the action belongs to, or [] for bot-wide triggers */
  base: Segment[];
}

/**
 * `embedded` is true for an action that sits in its parent's schema by a direct reference (a
 * button of a `buttons` list, a carousel card's button) rather than in an operation list: the
 * validator checks it together with its parent.
 */
export type ActionVisitor = (action: Obj, path: Segment[], scope: ActionScope, embedded: boolean) => void;
/** Child actions found; `branched` when some came through alternatives (then duplicates are possible). */
type Found = { node: Obj; path: Segment[]; embedded: boolean }[] & { branched?: boolean };

/** Nesting limit for actions inside actions: validated documents are below it (MAX_DEPTH = 200 levels). */
const MAX_ACTION_NESTING = 150;
const EMBEDDED_REF = /^#\/\$defs\/(buttonOrLink|action-.+)$/;

function add(out: Found, node: unknown, path: Segment[], embedded: boolean): void {
  if (isObj(node)) out.push({ node, path, embedded });
}

/**
 * Direct child actions of `value` (a part of an action) according to `schema`, with their paths
 * relative to `value`. Branches of anyOf/oneOf/if are all followed: the same position found twice
 * is reported once.
 */
function childActions(value: unknown, schema: unknown, defs: Obj, out: Found, path: Segment[], depth: number): void {
  if (!isObj(schema) || depth > 32) return;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    if (ref === '#/$defs/actions') {
      if (Array.isArray(value)) value.forEach((item, i) => add(out, item, [...path, i], false));
    } else if (ref === '#/$defs/action') {
      add(out, value, path, false);
    } else if (EMBEDDED_REF.test(ref)) {
      add(out, value, path, true);
    } else if (ref.startsWith('#/$defs/')) {
      childActions(value, defs[decodeURIComponent(ref.slice(8))], defs, out, path, depth + 1);
    }
  }
  if (isObj(value)) {
    const props = isObj(schema.properties) ? schema.properties : {};
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(props, key)) childActions(value[key], props[key], defs, out, [...path, key], depth + 1);
      else if (isObj(schema.additionalProperties)) childActions(value[key], schema.additionalProperties, defs, out, [...path, key], depth + 1);
    }
  }
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    value.forEach((item, i) => childActions(item, i < prefix.length ? prefix[i] : schema.items, defs, out, [...path, i], depth + 1));
  }
  const before = out.length;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) childActions(value, b, defs, out, path, depth + 1);
  }
  for (const key of ['then', 'else'] as const) childActions(value, schema[key], defs, out, path, depth + 1);
  if (out.length > before) out.branched = true;
}

function visitActions(list: unknown, path: Segment[], scope: ActionScope, registry: ActionRegistry, defs: Obj, visit: ActionVisitor): void {
  if (!Array.isArray(list)) return;
  list.forEach((item, i) => visitAction(item, [...path, i], false, scope, registry, defs, visit, 0));
}

function visitAction(node: unknown, path: Segment[], embedded: boolean, scope: ActionScope, registry: ActionRegistry, defs: Obj, visit: ActionVisitor, nesting: number): void {
  if (!isObj(node) || nesting > MAX_ACTION_NESTING) return;
  visit(node, path, scope, embedded);
  if (typeof node.type !== 'string' || !registry.has(node.type)) return;
  const found: Found = [];
  childActions(node, defs[actionDefName(node.type)], defs, found, [], 0);
  // Alternatives (anyOf, if/then) can lead to the same place twice: visit it once.
  const seen = found.branched ? new Set<string>() : null;
  for (const child of found) {
    if (child.path.length === 0) continue; // a fragment referring to #/$defs/action for itself
    if (seen) {
      const k = child.path.join('\u0000');
      if (seen.has(k)) continue;
      seen.add(k);
    }
    visitAction(child.node, [...path, ...child.path], child.embedded, scope, registry, defs, visit, nesting + 1);
  }
}

function visitTriggers(triggers: unknown, path: Segment[], scope: ActionScope, registry: ActionRegistry, defs: Obj, visit: ActionVisitor): void {
  if (!Array.isArray(triggers)) return;
  triggers.forEach((t, i) => {
    if (isObj(t)) visitActions(t.actions, [...path, i, 'actions'], scope, registry, defs, visit);
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
      visitActions(it.actions, [...iPath, 'actions'], { behaviour, interaction: { index: ii, node: it }, base: iPath }, registry, defs, visit);
    });
  });
}
