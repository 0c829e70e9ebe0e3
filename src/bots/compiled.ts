// The validators behind validateBotFile. Validating the whole file with one recursive schema is
// quadratic in the number of errors: ajv's generated code copies the error array (concat) at every
// call of a referenced, recursive sub-schema. A 5 MiB file of broken actions would take minutes.
// So the bot schema is cut at its operation lists into two reference-free ("shallow") schemas:
// the file without the contents of its action lists, and one action without the contents of its
// own operation lists. validate.ts applies the second to every action the walker finds. Together
// they accept exactly what the published schema accepts (checked by schema.test.ts).

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { botSchemaFor, type ActionRegistry, type JsonSchema } from './schema.js';
import { isObj, type Obj } from './walk.js';

export interface Validators {
  /** the full bot schema, with its references */
  schema: JsonSchema;
  /** the file, with action lists checked only for holding objects */
  file: ValidateFunction;
  /** one action, with its operation lists checked only for holding objects */
  action: ValidateFunction;
  /** false in the fallback where `file` is the full schema and already checks every action */
  shallow: boolean;
  /** one anyOf/oneOf alternative, to tell which errors came from which (problems.ts) */
  branch: (schema: unknown) => ValidateFunction;
}

/** Where an operation list or a single action appears, the shallow schemas only check the shape. */
const SHALLOW_LIST: JsonSchema = { type: 'array', description: 'actions run in order', items: { type: 'object' } };
const SHALLOW_ACTION: JsonSchema = { type: 'object' };
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);
/** Keywords whose values are data, not schemas: never to be dereferenced. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

class CycleError extends Error {}

/** `node` with every `#/$defs/...` reference replaced by its target, cut at the action lists. */
function deref(node: unknown, defs: Obj, stack: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(n, defs, stack));
  if (!isObj(node)) return node;
  const out: Obj = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref') continue;
    out[k] = DATA_KEYWORDS.has(k) ? v : k === 'properties' || k === 'patternProperties' || k === '$defs' ? mapValues(v, defs, stack) : deref(v, defs, stack);
  }
  const ref = node.$ref;
  if (typeof ref !== 'string') return out;
  let target: unknown;
  if (ref === '#/$defs/actions') target = SHALLOW_LIST;
  else if (ref === '#/$defs/action') target = SHALLOW_ACTION;
  else if (ref.startsWith('#/$defs/')) {
    const name = decodeURIComponent(ref.slice(8)).replace(/~1/g, '/').replace(/~0/g, '~');
    if (stack.includes(name) || !(name in defs)) throw new CycleError(ref);
    target = deref(defs[name], defs, [...stack, name]);
  } else {
    return { ...out, $ref: ref };
  }
  // A $ref with only annotations beside it is just its target; otherwise both apply (2020-12).
  const siblings = Object.keys(out).filter((k) => !ANNOTATIONS.has(k));
  return siblings.length === 0 ? { ...(target as Obj), ...out } : { ...out, allOf: [...((out.allOf as unknown[]) ?? []), target] };
}

function mapValues(v: unknown, defs: Obj, stack: readonly string[]): unknown {
  if (!isObj(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, s]) => [k, deref(s, defs, stack)]));
}

const cache = new WeakMap<ActionRegistry, Validators>();

export function validatorsFor(registry: ActionRegistry): Validators {
  const cached = cache.get(registry);
  if (cached) return cached;
  const schema = botSchemaFor(registry);
  // strict:false because the action fragments come from the engine; schema.test.ts compiles the
  // published schema in strict mode to catch mistakes there rather than failing every save.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, allowUnionTypes: true, strict: false });
  addFormats.default(ajv);
  const defs = schema.$defs as Obj;
  const { $defs: _defs, $id: _id, ...root } = schema;
  let file: ValidateFunction;
  let action: ValidateFunction;
  let shallow = true;
  try {
    file = ajv.compile(deref(root, defs, []) as JsonSchema);
    action = ajv.compile(deref(defs.action, defs, ['action']) as JsonSchema);
  } catch (err) {
    if (!(err instanceof CycleError)) throw err;
    // A fragment that references itself other than through an operation list cannot be cut;
    // validate with the full schema then (correct, only slow on files with many errors).
    shallow = false;
    file = ajv.compile(schema);
    action = ajv.compile({ $defs: defs, $ref: '#/$defs/action' });
  }
  const branches = new WeakMap<object, ValidateFunction>();
  const branch = (b: unknown): ValidateFunction => {
    const key = isObj(b) ? b : { const: b };
    let v = branches.get(key);
    if (!v) branches.set(key, (v = ajv.compile(typeof b === 'boolean' ? (b ? {} : { not: {} }) : { $defs: defs, ...key })));
    return v;
  };
  const validators = { schema, file, action, shallow, branch };
  cache.set(registry, validators);
  return validators;
}

export type { ErrorObject };
