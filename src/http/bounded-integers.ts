// Every whole number a request carries (path, query, headers, body) has a minimum and a maximum in
// its route's schema, so that a number the database cannot hold (a version of 2^31 in a 32-bit
// PostgreSQL column, 1e308) is a 400 INVALID_REQUEST naming the field on every database, not a
// 500 from one of them. Checked as each route is registered: an unbounded integer stops the start.
import { Type, type TNumberOptions } from 'typebox';
import type { FastifyInstance } from 'fastify';

/** The largest value of a 32-bit signed column (PostgreSQL `integer`): bot versions. */
export const INT32_MAX = 2_147_483_647;

/** A whole number from `minimum` to `maximum`, both included. */
export const BoundedInteger = (minimum: number, maximum: number, options: TNumberOptions = {}) => Type.Integer({ ...options, minimum, maximum });

/** A published version of a bot (1, 2, ...), as its 32-bit column holds it. */
export const VersionNumber = (options: TNumberOptions = {}) => BoundedInteger(1, INT32_MAX, options);

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object';
const bounded = (schema: Schema, inclusive: string, exclusive: string) => Number.isFinite(schema[inclusive] ?? schema[exclusive]);

/** Where in `schema` an integer lacks a finite minimum or maximum, as paths like `body.Parts[].TypeDelay`. */
export function unboundedIntegers(schema: unknown, at: string, found: string[] = [], depth = 0): string[] {
  if (!isSchema(schema) || depth > 32) return found;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') && !(bounded(schema, 'minimum', 'exclusiveMinimum') && bounded(schema, 'maximum', 'exclusiveMaximum'))) found.push(at);
  if (isSchema(schema.properties)) for (const [name, member] of Object.entries(schema.properties)) unboundedIntegers(member, `${at}.${name}`, found, depth + 1);
  for (const key of ['items', 'additionalProperties', 'not']) unboundedIntegers(schema[key], key === 'items' ? `${at}[]` : `${at}.*`, found, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    if (Array.isArray(schema[key])) for (const branch of schema[key]) unboundedIntegers(branch, at, found, depth + 1);
  }
  if (isSchema(schema.patternProperties)) for (const member of Object.values(schema.patternProperties)) unboundedIntegers(member, `${at}.*`, found, depth + 1);
  return found;
}

const REQUEST_PARTS = ['params', 'querystring', 'headers', 'body'] as const;

export function refuseUnboundedIntegers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const found = REQUEST_PARTS.flatMap((part) => unboundedIntegers(schema[part], part));
    if (found.length > 0) throw new Error(`${String(route.method)} ${route.url}: integers without a minimum and maximum at ${found.join(', ')} (use BoundedInteger, src/http/bounded-integers.ts)`);
  });
}
