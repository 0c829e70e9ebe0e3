// The console's session: the cookie that signs an operator in, and the route options every cookie
// route is built from (sign-in before the body is read, the operator's role against the route's
// area). Used by the console, analytics and designer routes.
import { Type, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertRoleAllows, type ConsoleArea } from '../../operators/roles.js';
import type { OperatorContext } from '../../operators/sessions.js';
import type { ErrorCode } from '../../shared/errors.js';
import { assertGuarded } from '../edge.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';

export const SESSION_COOKIE = 'colloquy_console';

declare module 'fastify' {
  interface FastifyRequest {
    operatorContext: OperatorContext | null;
  }
  interface FastifyContextConfig {
    /** a cookie route of the console: which roles open it (operators/roles.ts) */
    consoleArea?: ConsoleArea;
  }
}

/** The value of one cookie from the Cookie header (no library needed for one name). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/** The session cookie of a request, read only on routes the cross-site guard covers. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  assertGuarded(request, 'session');
  return cookieValue(request.headers.cookie, SESSION_COOKIE);
}

/**
 * Route options of the console API: signed in before the body is read, so an anonymous request
 * never gets its body parsed, and refused (403 ROLE_FORBIDDEN) when the operator's role does not
 * open the route's `area` (operators/roles.ts). Limits count per operator; failed session cookies
 * are throttled like failed tokens. Also used by the analytics and designer APIs. The
 * `ambientCredential` mark is what the cross-site guard (edge.ts) keys on, so every route built
 * from these options is guarded whatever its URL, and only such a route may read the cookie.
 */
export function operatorSignIn(app: App, s: Services, area: ConsoleArea) {
  return {
    config: { limit: 'principal' as const, ambientCredential: 'session' as const, consoleArea: area },
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      const cookie = sessionCookieOf(request);
      request.operatorContext = await app.failedAuth.guard(request, reply, cookie, () => s.operatorSessions.authenticate(cookie));
      request.limitKey = `operator:${request.operatorContext.operator.id}`;
      assertRoleAllows(request.operatorContext.operator.role, area);
    },
  };
}

/** The error codes of a cookie route, for /docs (bearer routes get theirs from responses.ts). */
export const SESSION_ERRORS = ['TOKEN_MISSING', 'TOKEN_INVALID', 'ROLE_FORBIDDEN', 'ORIGIN_FORBIDDEN'] as const;

export type SignedIn = ReturnType<typeof operatorSignIn>;

/**
 * The /docs part of a cookie twin of a bot's account-token route (/console/api/bots/{botId}/…):
 * its tag, the session as security, the bot by id, and the session's errors besides the route's.
 */
export function consoleTwinSchema(tag: string, method: string, errors: readonly ErrorCode[], params: Record<string, TSchema> = {}) {
  return {
    tags: [tag],
    security: [{ consoleSession: [] }],
    params: Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }), ...params }),
    errors: [...errors, ...SESSION_ERRORS.filter((code) => method !== 'GET' || code !== 'ORIGIN_FORBIDDEN'), 'RATE_LIMITED'] as ErrorCode[],
  };
}
