// Who may call a route and how often, in one hook that runs before the body is read:
// identify the caller (401, with failed attempts throttled on their own) → count the request
// against the caller's rate limit (429; X-RateLimit-* on every answer, errors included) →
// authorize the caller for this route (403). Counting comes before authorizing so that a token
// of the wrong kind is limited like any other request of its principal.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../auth/authenticate.js';
import { AppError } from '../shared/errors.js';
import { AuthFailureThrottle, limitKeyOf } from './auth-throttle.js';
import { SharedWindowStore, WindowCounters } from './rate-limit-store.js';
import type { Services } from './services.js';
import { WindowReporter } from './window-reporter.js';

/** Sign-in attempts per client address and minute, counted apart from every other request. */
export const LOGINS_PER_MINUTE = 30;
const MINUTE = 60_000;

/** Which budget a route's requests are counted in. */
export type LimitKind = 'principal' | 'sign-in';

declare module 'fastify' {
  interface FastifyInstance {
    /** the throttle of failed authentication, for routes that authenticate by themselves */
    failedAuth: AuthFailureThrottle;
  }
  interface FastifyContextConfig {
    access?: Access;
    limit?: LimitKind;
  }
}

type Limiter = (request: FastifyRequest) => Promise<{ max: number; remaining: number; ttlInSeconds: number; isExceeded: boolean }>;

export async function installAccessControl(app: FastifyInstance, s: Services): Promise<void> {
  const limitsOn = s.config.rateLimitPerMinute > 0;
  // Nodes on one PostgreSQL add up their counts (rate-limit-store.ts); one node counts alone.
  const reporter = s.rateWindows && new WindowReporter(s.rateWindows, (error) => app.log.warn(`rate limit counts not shared: ${(error as Error).message}`));
  const countersFor = (namespace: string) => new WindowCounters(reporter && { reporter, namespace });
  app.decorate('failedAuth', new AuthFailureThrottle(limitsOn, countersFor('failed:')));
  app.decorateRequest('limitKey', null);
  const limiters = new Map<LimitKind, Limiter>();
  if (limitsOn) {
    // The plugin's counting and window logic, called from our hook (no route-level hooks of its own).
    const counters = countersFor('limit:');
    const store = class extends SharedWindowStore {
      constructor() {
        super(counters);
      }
    };
    await app.register(rateLimit, { global: false, store, max: s.config.rateLimitPerMinute, timeWindow: MINUTE, keyGenerator: limitKeyOf });
    limiters.set('principal', app.createRateLimit() as unknown as Limiter);
    limiters.set('sign-in', app.createRateLimit({ max: LOGINS_PER_MINUTE, timeWindow: MINUTE, keyGenerator: (request) => `sign-in:${request.ip}` }) as unknown as Limiter);
  }

  app.addHook('preParsing', async (request, reply, payload) => {
    const { access, limit } = request.routeOptions.config ?? {};
    if (access) {
      const header = request.headers.authorization;
      const credential = header?.trim().split(/\s+/).pop();
      request.principal = await app.failedAuth.guard(request, reply, credential, () => s.auth.identify(header, access));
    }
    const limiter = limit && limiters.get(limit);
    if (limiter) await count(limiter, request, reply);
    if (access) s.auth.authorize(request.principal!, access);
    return payload;
  });
}

async function count(limiter: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const result = await limiter(request);
  reply.header('X-RateLimit-Limit', String(result.max));
  reply.header('X-RateLimit-Remaining', String(result.remaining));
  reply.header('X-RateLimit-Reset', String(result.ttlInSeconds));
  if (result.isExceeded) {
    reply.header('Retry-After', String(result.ttlInSeconds));
    throw new AppError('RATE_LIMITED', `Rate limit of ${result.max} requests a minute exceeded; retry in ${result.ttlInSeconds} s.`);
  }
}
