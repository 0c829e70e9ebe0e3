// How answers are documented and written. Each route declares its success schemas and the error
// codes of its own (`schema.errors`); the codes every route of its kind can answer (bad input,
// authentication, rate limits) are added here, so /docs lists all of them with ErrorResponse.
// Replies are written with JSON.stringify whatever their schema: fast-json-stringify would drop
// members a schema does not name and coerce types, and a document must never change the wire.
// With `checkResponses` (tests) each JSON answer is also validated against its schema, so the
// document cannot drift from what the API really sends.
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { AppError, errorCatalogue, type ErrorCode } from '../shared/errors.js';
import { ErrorResponse } from './wire-schemas.js';

declare module 'fastify' {
  interface FastifySchema {
    /** the error codes this route answers with besides those of every route of its kind */
    errors?: readonly ErrorCode[];
  }
}

const BAD_INPUT: ErrorCode[] = ['INVALID_REQUEST'];
const BODY: ErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const BEARER: ErrorCode[] = ['TOKEN_MISSING', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_SCOPE', 'PLAN_FORBIDDEN'];
const ADMIN_BEARER: ErrorCode[] = ['TOKEN_MISSING', 'TOKEN_INVALID', 'TOKEN_SCOPE'];
const LIMITED: ErrorCode[] = ['RATE_LIMITED'];
const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

/** The error codes a route can answer with, grouped by status, as response schemas. */
export function errorResponses(codes: Iterable<ErrorCode>): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = { description: `${list.join(', ')} (docs/errors.md)`, $ref: 'ErrorResponse#' };
  }
  return responses;
}

function codesOf(route: RouteOptions): ErrorCode[] {
  const schema = route.schema ?? {};
  const methods = [route.method].flat();
  const codes = [...BAD_INPUT, ...(schema.errors ?? [])];
  if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) codes.push(...BODY);
  const access = route.config?.access;
  if (access) codes.push(...(access === 'admin' ? ADMIN_BEARER : BEARER));
  if (route.config?.limit) codes.push(...LIMITED);
  return codes;
}

export function installResponses(app: FastifyInstance, options: { checkResponses: boolean }): void {
  app.addSchema(ErrorResponse);
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    const declared = Object.entries((route.schema.response ?? {}) as Record<string, Record<string, unknown>>).map(([status, schema]) => [
      status,
      schema.description === undefined && SUCCESS[status] ? { ...schema, description: SUCCESS[status] } : schema,
    ]);
    route.schema = { ...route.schema, response: { ...errorResponses(codesOf(route)), ...Object.fromEntries(declared) } };
  });
  if (!options.checkResponses) {
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    return;
  }
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    // compiled when the first answer of this status is written, not when the route is declared:
    // a test server answers a handful of its 200-odd routes, and compiling them all cost about a
    // second of CPU per server start
    let validate: ValidateFunction | null = null;
    return (data) => {
      validate ??= validatorOf(schema as object);
      if (!validate(data)) {
        const problem = validate.errors?.[0];
        throw new AppError('INTERNAL', `The ${httpStatus} answer of ${method} ${url} breaks its documented schema: ${problem?.instancePath || '/'} ${problem?.message ?? ''}`);
      }
      return JSON.stringify(data);
    };
  });
}

/** One checker per schema text in the process, shared by every server a test file starts. */
const checkers = new Map<string, ValidateFunction>();
let checkingAjv: Ajv | null = null;

function validatorOf(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = checkers.get(key);
  if (!validate) {
    if (!checkingAjv) {
      checkingAjv = new Ajv({ strict: false, allErrors: false });
      checkingAjv.addSchema(ErrorResponse);
    }
    validate = checkingAjv.compile(schema);
    checkers.set(key, validate);
  }
  return validate;
}
