// The Fastify instance's type and what route files share, in a module of its own so that
// server.ts (which registers the routes) and the routes do not import each other.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyContextConfig, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Access } from '../auth/authenticate.js';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export const DEFAULT_BODY_LIMIT = 256 * 1024;
export const BOT_FILE_BODY_LIMIT = 5 * 1024 * 1024;
/** A knowledge document: 10 MiB of text, with room for its JSON escaping (the text itself is measured after). */
export const KNOWLEDGE_BODY_LIMIT = 24 * 1024 * 1024;

/** Route options for an authenticated route: who may call it; counted in its principal's rate limit. */
export function authed(access: Access): { config: FastifyContextConfig } {
  return { config: { access, limit: 'principal' } };
}
