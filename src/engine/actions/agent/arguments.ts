// Checking a tool's arguments against its JSON Schema (agents.md "Tools") with ajv, the project's
// validator. A schema is compiled once and kept (a bounded cache keyed by its JSON text): the same
// bot's tools are checked on every turn. `pattern` keywords run on RE2 (author-regex.ts), never on
// V8's backtracking engine: a designer's pattern meets the model's text, which a visitor steers.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { compileAuthorRegex } from '../../author-regex.js';

/** Schemas kept compiled; past it the oldest is dropped (a server holds many bots). */
const MAX_CACHED = 500;
/** The JSON text of a tool's arguments the model may send; more is refused before parsing. */
export const MAX_ARGUMENTS_BYTES = 16 * 1024;

function re2(pattern: string, _flags: string) {
  const { regex, problem } = compileAuthorRegex(pattern, { caseSensitive: true });
  if (regex === null) throw new Error(problem);
  // ajv keys its compiled patterns by toString(): each must tell itself apart
  return { test: (text: string) => regex.matcher(text).find(), toString: () => `re2:${pattern}` };
}
re2.code = 'require("re2js")'; // only read by ajv's standalone code generation, which is not used

const ajv = new Ajv2020({ allErrors: false, strict: false, allowUnionTypes: true, code: { regExp: re2 } });
addFormats.default(ajv);
const cache = new Map<string, { validate: ValidateFunction | string; schema: object | null }>();

/** The validator of a schema, or why it cannot be one. */
export function validatorOf(schema: unknown): ValidateFunction | string {
  const key = JSON.stringify(schema ?? {});
  const known = cache.get(key);
  if (known !== undefined) return known.validate;
  // a top-level $id would collide with another bot's schema of the same $id in ajv's registry; a
  // top-level $schema names a dialect ajv's 2020 validator refuses to compile (the MCP SDK's servers
  // declare draft-07), though the keywords tool arguments use mean the same in both
  const { $id: _id, $schema: _dialect, ...own } = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>) : {};
  let entry: { validate: ValidateFunction | string; schema: object | null };
  try {
    entry = { validate: ajv.compile(own), schema: own };
  } catch (error) {
    entry = { validate: error instanceof Error ? error.message : String(error), schema: null };
  }
  if (cache.size >= MAX_CACHED) {
    const [oldest, dropped] = cache.entries().next().value!;
    cache.delete(oldest);
    // ajv keeps every compiled schema too: let it go with ours, so the cache stays bounded
    if (dropped.schema !== null) ajv.removeSchema(dropped.schema);
  }
  cache.set(key, entry);
  return entry.validate;
}

/** Why a tool's `parameters` cannot be used: not an object schema, or not a schema at all; null when fine. */
export function parametersProblem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'parameters must be a JSON Schema object';
  if ((schema as { type?: unknown }).type !== 'object') return 'parameters must be a JSON Schema of type "object"';
  const validator = validatorOf(schema);
  return typeof validator === 'string' ? `parameters is not a valid JSON Schema: ${validator}` : null;
}

/** A schema for any value (a `variable` tool's `schema`); null when fine. */
export function schemaProblem(schema: unknown): string | null {
  const validator = validatorOf(schema);
  return typeof validator === 'string' ? `not a valid JSON Schema: ${validator}` : null;
}

export type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** The model's argument text, parsed and checked: an object that fits `schema`, or why not (told to the model). */
export function parseArguments(text: string, schema: unknown): Parsed {
  if (text.length > MAX_ARGUMENTS_BYTES) return { ok: false, error: `arguments over ${MAX_ARGUMENTS_BYTES} bytes` };
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, error: 'arguments are not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'arguments must be a JSON object' };
  return check(value as Record<string, unknown>, schema);
}

/** Checks a parsed value against a schema; an unusable schema refuses every value. */
export function check<T>(value: T, schema: unknown): { ok: true; value: T } | { ok: false; error: string } {
  const validator = validatorOf(schema);
  if (typeof validator === 'string') return { ok: false, error: 'the tool is misconfigured' };
  if (validator(value)) return { ok: true, value };
  const first = validator.errors?.[0];
  return { ok: false, error: `arguments do not fit: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}` };
}
