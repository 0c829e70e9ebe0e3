// The rules of bot-format.md "Rules checked on save" that a JSON Schema cannot express, plus regex
// checks. They read the document defensively: a rule looks only at values of the right type,
// so a part the schema rejected is skipped rather than reported twice or crashing the check.

import { GUID_PATTERN, type ActionRegistry, type JsonSchema } from './schema.js';
import { toJsonPath } from './problems.js';
import { forEachAction, isObj, type Obj, type Segment } from './walk.js';
import { regexProblem } from '../engine/matching.js';
import type { SaveCheckContext } from '../engine/action-definition.js';
import type { Action } from '../engine/bot-file.js';
import { widgetLookProblems } from './widget-look.js';
import { intentTriggerProblems, nlpNames, nlpSectionProblems, type NlpNames } from './nlp-rules.js';

export interface RawProblem {
  path: Segment[];
  message: string;
}

const GUID = new RegExp(GUID_PATTERN);
const key = (s: string): string => s.toLowerCase();

/**
 * Why a user regex cannot run, or null. The engine's own compiler (linear-time RE2, issue 11), so a
 * pattern accepted here is one the engine runs: syntax errors, backreferences, lookarounds and
 * oversized patterns are refused, each in words that say what to change.
 */
export function regexError(source: string): string | null {
  return regexProblem(source);
}

/** Paths (JSONPath) where the schema found a problem: rules that depend on those values stay quiet. */
export type Failed = ReadonlySet<string>;

/**
 * `start`/`fallback` flag rules: none → problem at the list; extras (2nd onwards) → at their flag.
 * Skipped when the list, an element or a flag failed the schema: counting them would only echo that.
 */
function exactlyOne(nodes: unknown[], listPath: Segment[], flag: 'start' | 'fallback', what: string, min: 0 | 1, failed: Failed, out: RawProblem[]): void {
  if (failed.has(toJsonPath(listPath))) return;
  for (let i = 0; i < nodes.length; i++) {
    if (failed.has(toJsonPath([...listPath, i])) || failed.has(toJsonPath([...listPath, i, flag]))) return;
  }
  const flagged = nodes.flatMap((n, i) => (isObj(n) && n[flag] === true ? [i] : []));
  if (flagged.length < min) out.push({ path: listPath, message: `no ${what} has "${flag}": true; exactly one must` });
  for (const i of flagged.slice(1)) {
    out.push({ path: [...listPath, i, flag], message: `only one ${what} may have "${flag}": true (the first is at index ${flagged[0]})` });
  }
}

function uniqueNames(nodes: unknown[], listPath: Segment[], what: string, out: RawProblem[]): void {
  const first = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (!isObj(n) || typeof n.name !== 'string') return;
    const k = key(n.name);
    const at = first.get(k);
    if (at === undefined) first.set(k, i);
    else out.push({ path: [...listPath, i, 'name'], message: `duplicate ${what} name '${n.name}' (names are case-insensitive; first at index ${at})` });
  });
}

/** Not in the spec's list, but a behaviour key (ForcedBehaviourKey) must name one behaviour. */
function uniqueApiKeys(behaviours: unknown[], out: RawProblem[]): void {
  const first = new Map<string, number>();
  behaviours.forEach((b, i) => {
    if (!isObj(b) || typeof b.apiKey !== 'string') return;
    const at = first.get(b.apiKey);
    if (at === undefined) first.set(b.apiKey, i);
    else out.push({ path: ['behaviours', i, 'apiKey'], message: `duplicate behaviour apiKey (first at index ${at})` });
  });
}

function checkTriggers(triggers: unknown, path: Segment[], out: RawProblem[]): void {
  if (!Array.isArray(triggers)) return;
  triggers.forEach((t, i) => {
    if (isObj(t) && isObj(t.match) && typeof t.match.regex === 'string') {
      const err = regexError(t.match.regex);
      if (err) out.push({ path: [...path, i, 'match', 'regex'], message: err });
    }
  });
}

/**
 * Webhooks are POSTed to `channels.custom.webhookUrl`: anything but an absolute http(s) URL
 * (ftp:, file:, javascript:, no scheme...) is refused on save rather than failing every delivery.
 * null or '' mean no webhook. A URL with clone tags (`https://[[domain]]/hook`) is a template:
 * only its scheme is checked here, and the copy made from it is validated again once filled in.
 */
function checkWebhookUrl(settings: unknown, out: RawProblem[]): void {
  if (!isObj(settings) || !isObj(settings.channels) || !isObj(settings.channels.custom)) return;
  const url = settings.channels.custom.webhookUrl;
  if (typeof url !== 'string' || url === '') return;
  let ok = /^https?:\/\/[^/?#\s]/i.test(url);
  if (ok && !url.includes('[[')) {
    try {
      ok = ['http:', 'https:'].includes(new URL(url).protocol);
    } catch {
      ok = false;
    }
  }
  if (!ok) out.push({ path: ['settings', 'channels', 'custom', 'webhookUrl'], message: 'must be an absolute http:// or https:// URL' });
}

/**
 * What goTo targets are checked against: behaviour name (lower case) → its interaction names,
 * or null where the schema rejected a name (then "missing" could be a false alarm, so no check).
 */
interface NameIndex {
  behaviours: Map<string, Set<string> | null>;
  /** false when some behaviour has no usable name: a missing behaviour cannot be asserted */
  complete: boolean;
}

function nameIndex(behaviours: unknown[] | null): NameIndex {
  const index: NameIndex = { behaviours: new Map(), complete: behaviours !== null };
  for (const b of behaviours ?? []) {
    if (!isObj(b) || typeof b.name !== 'string') {
      index.complete = false;
      continue;
    }
    if (index.behaviours.has(key(b.name))) continue;
    let names: Set<string> | null = new Set<string>();
    if (!Array.isArray(b.interactions)) names = null;
    else
      for (const it of b.interactions) {
        if (isObj(it) && typeof it.name === 'string') names?.add(key(it.name));
        else names = null;
      }
    index.behaviours.set(key(b.name), names);
  }
  return index;
}

/** What an action type's own save-time check may ask about the file (engine/action-definition.ts). */
function checkContext(index: NameIndex, behaviour: Obj | undefined, names: NlpNames): SaveCheckContext {
  return {
    hasEntity: (name) => (names.entities === null ? null : names.entities.has(key(name))),
    behaviourName: behaviour && typeof behaviour.name === 'string' ? behaviour.name : undefined,
    hasBehaviour: (name) => (index.behaviours.has(key(name)) ? true : index.complete ? false : null),
    interactionsOf: (name) => index.behaviours.get(key(name)) ?? null,
  };
}

export function semanticProblems(doc: unknown, registry: ActionRegistry, schema: JsonSchema, failed: Failed = new Set()): RawProblem[] {
  const out: RawProblem[] = [];
  if (!isObj(doc)) return out;
  checkTriggers(doc.triggers, ['triggers'], out);
  checkWebhookUrl(doc.settings, out);
  widgetLookProblems(doc.settings, out);
  const names = nlpNames(doc);
  nlpSectionProblems(doc, out);
  intentTriggerProblems(doc.triggers, ['triggers'], names, out);
  const behaviours = Array.isArray(doc.behaviours) ? doc.behaviours : null;
  if (behaviours) {
    exactlyOne(behaviours, ['behaviours'], 'start', 'behaviour', 1, failed, out);
    uniqueNames(behaviours, ['behaviours'], 'behaviour', out);
    uniqueApiKeys(behaviours, out);
    behaviours.forEach((b, bi) => {
      if (!isObj(b)) return;
      checkTriggers(b.triggers, ['behaviours', bi, 'triggers'], out);
      intentTriggerProblems(b.triggers, ['behaviours', bi, 'triggers'], names, out);
      if (!Array.isArray(b.interactions)) return;
      const listPath: Segment[] = ['behaviours', bi, 'interactions'];
      exactlyOne(b.interactions, listPath, 'start', 'interaction of this behaviour', 1, failed, out);
      exactlyOne(b.interactions, listPath, 'fallback', 'interaction of this behaviour', 0, failed, out);
      uniqueNames(b.interactions, listPath, 'interaction', out);
    });
  }
  const index = nameIndex(behaviours);
  const ids = new Map<string, string>();
  forEachAction(doc, registry, schema, (action, path, scope) => {
    if (typeof action.id === 'string') {
      if (!GUID.test(action.id)) out.push({ path: [...path, 'id'], message: 'must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)' });
      const k = key(action.id);
      const first = ids.get(k);
      if (first !== undefined) out.push({ path: [...path, 'id'], message: `duplicate id '${action.id}' (ids must be unique in the bot; first used at ${first})` });
      else ids.set(k, toJsonPath(path));
    }
    // Rules about one action type's fields live with that type (its definition's `check`).
    const check = typeof action.type === 'string' ? registry.get(action.type)?.check : undefined;
    if (check) for (const p of check(action as Action, checkContext(index, scope.behaviour?.node, names))) out.push({ path: [...path, ...p.path], message: p.message });
  });
  return out;
}
