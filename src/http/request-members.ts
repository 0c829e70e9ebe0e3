// api.md: request field names and query parameter names are matched case-insensitively. Before
// validation, every key that matches a schema property except for case is renamed to the schema's
// spelling, recursively through nested object schemas. Keys the schema does not know stay as sent
// (and are then refused by `additionalProperties: false`).

type Schema = { properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; type?: unknown };

/** Lower-cased property names per schema object, built once: this runs on every request. */
const namesBySchema = new WeakMap<Record<string, Schema>, Map<string, string>>();

function namesOf(properties: Record<string, Schema>): Map<string, string> {
  let names = namesBySchema.get(properties);
  if (!names) {
    names = new Map(Object.keys(properties).map((name) => [name.toLowerCase(), name]));
    namesBySchema.set(properties, names);
  }
  return names;
}

export function canonicalizeKeys(value: unknown, schema: Schema | undefined): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  // A union (e.g. Variables: a list of {Name, Value} or an object): follow the branch of the value's shape.
  if (schema.anyOf) return canonicalizeKeys(value, schema.anyOf.find((branch) => branch.type === (Array.isArray(value) ? 'array' : 'object')));
  if (Array.isArray(value)) {
    return schema.items ? value.map((item) => canonicalizeKeys(item, schema.items)) : value;
  }
  const properties = schema.properties;
  if (!properties) return value;
  const byLowerCase = namesOf(properties);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const canonical = byLowerCase.get(key.toLowerCase()) ?? key;
    // When a client sends both `userId` and `UserId`, the spelling of the schema wins.
    if (canonical in result && key !== canonical) continue;
    result[canonical] = canonicalizeKeys(item, properties[canonical]);
  }
  return result;
}
