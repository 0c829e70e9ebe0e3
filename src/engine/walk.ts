// The one walker over actions, however deeply nested (operation lists, buttons lists, carousel
// cards, then/else, onSuccess...). Which fields of an action hold further actions is read from the
// action type's own declaration (its schema fragment), so a new action type needs no change here.
// compile.ts indexes ids with it; bots/ (validation, save rules, id generation) walk whole files
// with it. The document is never trusted: anything not shaped as expected is skipped.

import type { ActionSchemaDefinition, Segment } from './action-definition.js';

export type { Segment };
export type Obj = Record<string, unknown>;
export type ActionSchemas = ReadonlyMap<string, ActionSchemaDefinition>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Called for every object found where an action belongs, parents before their children. `path`
 * starts with the path given to walkActions. `embedded` is true for an action that sits in its
 * parent's schema by a direct reference (a button of a `buttons` list, a carousel card's button)
 * rather than in an operation list: the validator checks it together with its parent. `parent` is
 * the nearest enclosing action, null at the top of the list.
 */
export type ActionVisitor = (action: Obj, path: Segment[], embedded: boolean, parent: Obj | null) => void;

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
 * is reported once. `defs` resolves other `#/$defs/...` references, when the caller has them.
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

interface Walk {
  registry: ActionSchemas;
  defs: Obj;
  visit: ActionVisitor;
}

function visitAction(node: unknown, path: Segment[], embedded: boolean, parent: Obj | null, walk: Walk, nesting: number): void {
  if (!isObj(node) || nesting > MAX_ACTION_NESTING) return;
  walk.visit(node, path, embedded, parent);
  const definition = typeof node.type === 'string' ? walk.registry.get(node.type) : undefined;
  if (definition === undefined) return; // an unknown type has no declared children
  const found: Found = [];
  childActions(node, definition.schema, walk.defs, found, [], 0);
  // Alternatives (anyOf, if/then) can lead to the same place twice: visit it once.
  const seen = found.branched ? new Set<string>() : null;
  for (const child of found) {
    if (child.path.length === 0) continue; // a fragment referring to #/$defs/action for itself
    if (seen) {
      const k = child.path.join('\u0000');
      if (seen.has(k)) continue;
      seen.add(k);
    }
    visitAction(child.node, [...path, ...child.path], child.embedded, node, walk, nesting + 1);
  }
}

/** Calls `visit` for every action of an operation list (at `path`) and all actions nested in them. */
export function walkActions(list: unknown, path: Segment[], registry: ActionSchemas, visit: ActionVisitor, defs: Obj = {}): void {
  if (!Array.isArray(list)) return;
  const walk: Walk = { registry, defs, visit };
  list.forEach((item, i) => visitAction(item, [...path, i], false, null, walk, 0));
}
