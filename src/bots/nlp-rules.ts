// The save rules of the `nlp` section and of intent triggers (understanding.md) that a JSON Schema
// cannot express: unique intent and entity names, an entity by values or by regex (one of them),
// a regex the engine can run, and triggers naming intents the section declares. Read
// defensively like rules.ts: a part the schema rejected is skipped, not reported twice.
import { regexProblem } from '../engine/matching.js';
import { nlpCostProblems, type NlpProblem } from './nlp-costs.js';
import { isObj, type Segment } from './walk.js';

export type { NlpProblem } from './nlp-costs.js';

const key = (s: string): string => s.toLowerCase();
const RESERVED_INTENT = 'none';

/** Names declared in the section (lower case), or null where a malformed list cannot tell. */
export interface NlpNames {
  intents: Set<string> | null;
  entities: Set<string> | null;
}

export function nlpNames(doc: Record<string, unknown>): NlpNames {
  const nlp = doc.nlp;
  if (nlp === undefined) return { intents: new Set(), entities: new Set() };
  if (!isObj(nlp)) return { intents: null, entities: null };
  return { intents: namesOf(nlp.intents), entities: namesOf(nlp.entities) };
}

function namesOf(list: unknown): Set<string> | null {
  if (list === undefined) return new Set();
  if (!Array.isArray(list)) return null;
  const names = new Set<string>();
  for (const item of list) {
    if (!isObj(item) || typeof item.name !== 'string') return null;
    names.add(key(item.name));
  }
  return names;
}

export function nlpSectionProblems(doc: Record<string, unknown>, out: NlpProblem[]): void {
  const nlp = doc.nlp;
  if (!isObj(nlp)) return;
  nlpCostProblems(nlp, out);
  if (Array.isArray(nlp.intents)) {
    unique(nlp.intents, ['nlp', 'intents'], 'intent', out);
    nlp.intents.forEach((intent, i) => {
      if (isObj(intent) && typeof intent.name === 'string' && key(intent.name) === RESERVED_INTENT) {
        out.push({ path: ['nlp', 'intents', i, 'name'], message: `"${intent.name}" is reserved: it is what the AI fallback answers when no intent fits` });
      }
    });
  }
  if (Array.isArray(nlp.entities)) {
    unique(nlp.entities, ['nlp', 'entities'], 'entity', out);
    nlp.entities.forEach((entity, i) => {
      if (!isObj(entity)) return;
      const path: Segment[] = ['nlp', 'entities', i];
      const hasValues = entity.values !== undefined;
      const hasRegex = entity.regex !== undefined;
      if (hasValues === hasRegex) out.push({ path, message: 'an entity has either "values" (synonyms) or "regex", exactly one of them' });
      if (typeof entity.regex === 'string') {
        const error = regexProblem(entity.regex);
        if (error) out.push({ path: [...path, 'regex'], message: error });
      }
    });
  }
}

function unique(items: unknown[], listPath: Segment[], what: string, out: NlpProblem[]): void {
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    if (!isObj(item) || typeof item.name !== 'string') return;
    const at = first.get(key(item.name));
    if (at === undefined) first.set(key(item.name), i);
    else out.push({ path: [...listPath, i, 'name'], message: `duplicate ${what} name '${item.name}' (names are case-insensitive; first at index ${at})` });
  });
}

/** An intent trigger must name an intent of the section. */
export function intentTriggerProblems(triggers: unknown, path: Segment[], names: NlpNames, out: NlpProblem[]): void {
  if (!Array.isArray(triggers) || names.intents === null) return;
  triggers.forEach((trigger, i) => {
    if (!isObj(trigger) || typeof trigger.intent !== 'string' || trigger.intent === '') return;
    if (!names.intents!.has(key(trigger.intent))) {
      out.push({ path: [...path, i, 'intent'], message: `unknown intent '${trigger.intent}': declare it in nlp.intents` });
    }
  });
}
