// Turns ajv errors into the problems the API returns: one readable message per problem, at a
// JSONPath ($.behaviours[0].interactions[1].actions[2].text). A missing or unknown property is
// reported at the path of that property, so every path names the field to fix.

import type { ErrorObject, ValidateFunction } from 'ajv';
import { ACTION_TYPE_TEXT, BUTTON_TYPE_TEXT, PATTERN_MESSAGES } from './schema.js';
import { isObj, type Segment } from './walk.js';

export interface Problem {
  Path: string;
  Message: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function toJsonPath(segments: readonly Segment[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += `.${s}`;
    else out += `['${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}

/** JSON Pointer → segments; a segment is an index only where the document has an array there. */
export function pointerToSegments(pointer: string, doc: unknown): Segment[] {
  if (pointer === '') return [];
  const out: Segment[] = [];
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      out.push(Number(key));
      node = node[Number(key)];
    } else {
      out.push(key);
      node = isObj(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    }
  }
  return out;
}

const article = (t: string): string => ({ object: 'an object', array: 'an array', integer: 'an integer', null: 'null' })[t] ?? `a ${t}`;
const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const list = (xs: unknown[]): string => xs.map((x) => (typeof x === 'string' ? x : show(x))).join(', ');
const FORMAT_NAMES: Record<string, string> = { uri: 'URL', email: 'e-mail address', uuid: 'GUID', 'date-time': 'date-time (ISO 8601)' };

/** An ajv error with the pointer of the value it is about, relative to the whole document. */
interface Located {
  error: ErrorObject;
  pointer: string;
}

interface Message {
  pointer: string;
  message: string;
}

function describe(e: ErrorObject, pointer: string): Message | null {
  const p = e.params as Record<string, unknown>;
  const parent = isObj(e.parentSchema) ? e.parentSchema : {};
  switch (e.keyword) {
    case 'if':
      return null; // the errors of the chosen `then` say what is wrong
    case 'required':
    case 'dependentRequired': {
      const prop = String(p.missingProperty);
      return { pointer: `${pointer}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `required property '${prop}' is missing` };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const prop = String(p.additionalProperty ?? p.unevaluatedProperty);
      const allowed = isObj(parent.properties) ? Object.keys(parent.properties) : [];
      const hint = allowed.length ? ` (allowed: ${allowed.join(', ')})` : '';
      return { pointer: `${pointer}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `unknown property '${prop}'${hint}` };
    }
    case 'type': {
      const types = Array.isArray(p.type) ? p.type : String(p.type).split(',');
      return { pointer, message: `must be ${types.map(String).map(article).join(' or ')}` };
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]) ?? [];
      // The action dispatchers' enums (schemaPath is no help: ajv makes it relative to the $def).
      if (parent.description === ACTION_TYPE_TEXT || parent.description === BUTTON_TYPE_TEXT) {
        const what = parent.description === BUTTON_TYPE_TEXT ? 'action type not allowed here' : 'unknown action type';
        return { pointer, message: `${what}: ${show(e.data)}; allowed types: ${list(allowed)}` };
      }
      return { pointer, message: `must be one of: ${list(allowed)} (got ${show(e.data)})` };
    }
    case 'const':
      return { pointer, message: `must be ${show(p.allowedValue)}` };
    case 'format':
      return { pointer, message: `must be a valid ${FORMAT_NAMES[String(p.format)] ?? String(p.format)}` };
    case 'pattern':
      return { pointer, message: PATTERN_MESSAGES[String(p.pattern)] ?? `must match the pattern ${String(p.pattern)}` };
    case 'minLength':
      return { pointer, message: p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long` };
    case 'maxLength':
      return { pointer, message: `must be at most ${String(p.limit)} characters long` };
    case 'minItems':
      return { pointer, message: `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}` };
    case 'false schema':
      return { pointer, message: 'is not allowed here' };
    default:
      return { pointer, message: e.message ?? `fails ${e.keyword}` };
  }
}

/** Validates one anyOf/oneOf branch on its own, to know which errors came from which branch. */
export type BranchValidator = (branch: unknown) => ValidateFunction;

/** True when a branch failed only because the value is of another kind (type, const or discriminator). */
function isMismatch(errors: ErrorObject[]): boolean {
  return errors.some((e) => (e.instancePath === '' && ['type', 'const', 'enum'].includes(e.keyword)) || (e.instancePath === '/type' && ['const', 'enum'].includes(e.keyword)));
}

function kindOf(errors: ErrorObject[]): string[] {
  const e = errors.find((x) => x.instancePath === '' && ['type', 'const', 'enum'].includes(x.keyword));
  if (!e) return [];
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'type') return (Array.isArray(p.type) ? p.type : String(p.type).split(',')).map(String).map(article);
  if (e.keyword === 'const') return [show(p.allowedValue)];
  return ((p.allowedValues as unknown[]) ?? []).map(show);
}

/**
 * Replaces a failed anyOf/oneOf and its branch errors (the `consumed` errors just before it) by the
 * errors of the branch the value was evidently meant for: alternatives of another kind are dropped,
 * alternatives that only lack a property become one "'a' or 'b' is missing", and otherwise the
 * closest branch (fewest errors) speaks.
 */
function alternatives(e: ErrorObject, pointer: string, branchValidator: BranchValidator): { consumed: number; located: Located[]; messages: Message[] } {
  const branches = Array.isArray(e.schema) ? e.schema : [];
  const results = branches.map((b) => {
    const v = branchValidator(b);
    v(e.data);
    return [...(v.errors ?? [])];
  });
  const consumed = results.reduce((n, r) => n + r.length, 0);
  if (e.keyword === 'oneOf' && Array.isArray((e.params as Record<string, unknown>).passingSchemas)) {
    return { consumed, located: [], messages: [{ pointer, message: 'matches more than one of the allowed forms' }] };
  }
  const relevant = results.filter((r) => r.length > 0 && !isMismatch(r));
  if (relevant.length === 0) {
    const kinds = [...new Set(results.flatMap(kindOf))];
    return { consumed, located: [], messages: [{ pointer, message: kinds.length ? `must be ${kinds.join(' or ')}` : 'does not match any allowed form' }] };
  }
  if (relevant.length > 1 && relevant.every((r) => r.every((x) => x.keyword === 'required' && x.instancePath === ''))) {
    const names = [...new Set(relevant.flatMap((r) => r.map((x) => `'${String(x.params.missingProperty)}'`)))];
    return { consumed, located: [], messages: [{ pointer, message: `requires ${names.join(' or ')}` }] };
  }
  const best = relevant.reduce((a, b) => (b.length < a.length ? b : a));
  return { consumed, located: best.map((error) => ({ error, pointer: pointer + error.instancePath })), messages: [] };
}

/** ajv errors (in ajv's order) → messages with document pointers. */
function toMessages(located: Located[], branchValidator: BranchValidator): Message[] {
  // Each output unit remembers how many input errors it stands for, so that a failed anyOf can
  // take back exactly the errors its branches produced (ajv emits them right before it).
  const units: { consumed: number; messages: Message[] }[] = [];
  for (const { error, pointer } of located) {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') {
      const m = describe(error, pointer);
      units.push({ consumed: 1, messages: m ? [m] : [] });
      continue;
    }
    const alt = alternatives(error, pointer, branchValidator);
    let taken = 0;
    while (taken < alt.consumed && units.length > 0) taken += units.pop()!.consumed;
    units.push({ consumed: taken + 1, messages: [...alt.messages, ...toMessages(alt.located, branchValidator)] });
  }
  return units.flatMap((u) => u.messages);
}

/**
 * Problems for ajv's errors on `doc`, in order of discovery, one per path: several complaints about
 * one value ("must not be empty", "must be a GUID") are facets of one fault, so they are joined.
 */
export function schemaProblems(errors: ErrorObject[], doc: unknown, branchValidator: BranchValidator): Problem[] {
  const byPath = new Map<string, string[]>();
  for (const m of toMessages(
    errors.map((error) => ({ error, pointer: error.instancePath })),
    branchValidator,
  )) {
    const path = toJsonPath(pointerToSegments(m.pointer, doc));
    const messages = byPath.get(path);
    if (!messages) byPath.set(path, [m.message]);
    else if (!messages.includes(m.message)) messages.push(m.message);
  }
  return [...byPath].map(([Path, messages]) => ({ Path, Message: messages.join('; ') }));
}
