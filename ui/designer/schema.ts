// The bot schema (/schema/bot.json) as the forms read it: each action type's own definition is
// `$defs["action-<type>"]`, and fields point to shared parts with `$ref`. Forms are generated from
// these definitions, so a new action type in the server's registry gets a form without a change here.
export type Schema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: string[];
  description?: string;
  title?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxLength?: number;
  pattern?: string;
  $defs?: Record<string, Schema>;
  allOf?: unknown[];
  if?: Schema;
  then?: Schema;
  else?: Schema;
};

export interface BotSchema {
  root: Schema;
  actionTypes: string[];
}

let loaded: Promise<BotSchema> | null = null;

export function loadSchema(): Promise<BotSchema> {
  loaded ??= fetch('/schema/bot.json', { credentials: 'same-origin' })
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`The bot schema did not load (${res.status}).`))))
    .then((root: Schema) => ({ root, actionTypes: root.$defs?.action?.properties?.type?.enum ?? [] }));
  return loaded;
}

/** The schema a `$ref` names (only local `#/$defs/...` refs exist in the bot schema), with a list
 *  of types made a single one: `["string","null"]` is a string, `["string","object"]` (a trigger's
 *  match) a choice between a string and the object the same schema describes. */
export function resolve(root: Schema, schema: Schema): Schema {
  let s = schema;
  for (let guard = 0; s.$ref && guard < 10; guard++) s = root.$defs?.[decodeURIComponent(s.$ref.replace('#/$defs/', ''))] ?? {};
  // if/then/else with no fields of its own (a trigger: by intent, or by text) is a choice of the two
  if (s.if && s.then && s.else && !s.properties) return { description: s.description, anyOf: [s.then, s.else] };
  if (!Array.isArray(s.type)) return s;
  const types = s.type.filter((t) => t !== 'null');
  if (types.length === 1) return { ...s, type: types[0] };
  const { type: _type, properties, required, additionalProperties, minLength, ...rest } = s;
  return { ...rest, anyOf: types.map((t) => (t === 'object' ? { type: t, properties, required, additionalProperties } : { type: t, minLength })) };
}

export const actionSchema = (root: Schema, type: string): Schema => root.$defs?.[`action-${type}`] ?? {};

/** Whether a field holds a list of actions (an action's operations). */
export const isActionList = (schema: Schema) => schema.$ref === '#/$defs/actions';
export const isButtonList = (schema: Schema) => schema.type === 'array' && schema.items?.$ref === '#/$defs/buttonOrLink';

/** A new value for a schema: what a form shows empty, filled enough that the type is clear. */
export function emptyValue(root: Schema, schema: Schema): unknown {
  const s = resolve(root, schema);
  if (isActionList(schema) || s.type === 'array') return [];
  if (s.enum) return s.enum[0];
  if (s.anyOf) return emptyValue(root, s.anyOf[0]!);
  if (s.type === 'boolean') return false;
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 0;
  if (s.type === 'object') {
    // an object made with its required fields, so that it is recognisably that shape at once
    const object: Record<string, unknown> = {};
    for (const key of s.required ?? []) if (s.properties?.[key]) object[key] = emptyValue(root, s.properties[key]!);
    return object;
  }
  return '';
}

/** A new action of a type: its required fields (and the first way of an anyOf of required sets). */
export function newAction(root: Schema, type: string): Record<string, unknown> {
  const s = actionSchema(root, type);
  const action: Record<string, unknown> = { type };
  const required = [...(s.required ?? []), ...((s.anyOf?.[0]?.required as string[] | undefined) ?? [])];
  for (const field of required) if (field !== 'type' && field !== 'id' && s.properties?.[field]) action[field] = emptyValue(root, s.properties[field]!);
  return action;
}

/** A copy without ids: the server gives the copy's buttons and inputs new ones on save. */
export function withoutIds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutIds) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'id')
        .map(([k, v]) => [k, withoutIds(v)]),
    ) as T;
  }
  return value;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** The JSONPath the server's problems use, one segment further. */
export const jsonPath = (base: string, key: string | number) =>
  typeof key === 'number' ? `${base}[${key}]` : IDENTIFIER.test(key) ? `${base}.${key}` : `${base}['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;

/** Words for a field name: onSuccess → "on success". */
export const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
