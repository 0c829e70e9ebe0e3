// How a request body or query is read before validation (api.md Conventions):
// - field names match case-insensitively: a key that matches a schema property except for case is
//   renamed to the schema's spelling, recursively through nested object schemas;
// - `null` for an optional member means the member is absent (.NET and Java clients, Xenioo's C#
//   client among them, send every unset member as null), unless the member itself accepts null
//   (a variable's `Value: null` deletes it);
// - members the schema does not know are dropped, never refused, so older and newer clients keep
//   working. Schemas that take any member (`additionalProperties` not false) keep them all.

type Schema = {
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  type?: unknown;
  additionalProperties?: unknown;
};

interface ObjectNames {
  /** lower-cased property name → the schema's spelling */
  byLowerCase: Map<string, string>;
  /** optional properties whose schema does not accept null: a null there means "absent" */
  nullMeansAbsent: Set<string>;
}

/** Built once per schema object: this runs on every request. */
const namesBySchema = new WeakMap<Record<string, Schema>, ObjectNames>();

function acceptsNull(schema: Schema | undefined): boolean {
  if (!schema) return true;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return Boolean(schema.anyOf?.some(acceptsNull));
}

function namesOf(schema: Schema & { properties: Record<string, Schema> }): ObjectNames {
  let names = namesBySchema.get(schema.properties);
  if (!names) {
    const required = new Set(schema.required ?? []);
    names = {
      byLowerCase: new Map(Object.keys(schema.properties).map((name) => [name.toLowerCase(), name])),
      nullMeansAbsent: new Set(Object.keys(schema.properties).filter((name) => !required.has(name) && !acceptsNull(schema.properties[name]))),
    };
    namesBySchema.set(schema.properties, names);
  }
  return names;
}

export function normalizeMembers(value: unknown, schema: Schema | undefined): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  // A union (e.g. Variables: a list of {Name, Value} or an object): follow the branch of the value's shape.
  if (schema.anyOf)
    return normalizeMembers(
      value,
      schema.anyOf.find((branch) => branch.type === (Array.isArray(value) ? 'array' : 'object')),
    );
  if (Array.isArray(value)) {
    return schema.items ? value.map((item) => normalizeMembers(item, schema.items)) : value;
  }
  const properties = schema.properties;
  if (!properties) return value;
  const { byLowerCase, nullMeansAbsent } = namesOf(schema as Schema & { properties: Record<string, Schema> });
  const dropUnknown = schema.additionalProperties === false;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const canonical = byLowerCase.get(key.toLowerCase());
    if (canonical === undefined) {
      if (!dropUnknown) result[key] = item;
      continue;
    }
    if (item === null && nullMeansAbsent.has(canonical)) continue;
    // When a client sends both `userId` and `UserId`, the spelling of the schema wins.
    if (canonical in result && key !== canonical) continue;
    result[canonical] = normalizeMembers(item, properties[canonical]);
  }
  return result;
}
