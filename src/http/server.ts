// The HTTP server: the only place that knows Fastify. Builds the app from the services that
// main.ts wired, with the conventions of api.md applied to every route.
import crypto from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyContextConfig, type FastifyInstance, type FastifyBaseLogger, type RawServerDefault, type RawRequestDefaultExpression, type RawReplyDefaultExpression } from 'fastify';
import type { Principal } from '../auth/authenticate.js';
import { AppError } from '../shared/errors.js';
import { canonicalizeKeys } from './case-insensitive.js';
import { installErrorHandling } from './errors.js';
import { PerTokenStore } from './rate-limit-store.js';
import type { Services } from './services.js';
import { adminRoutes } from './routes/admin.js';
import { botRoutes } from './routes/bots.js';
import { operabilityRoutes } from './routes/operability.js';
import { tokenRoutes } from './routes/token.js';
import { customRoutes } from './routes/custom.js';
import { apihookRoutes } from './routes/apihook.js';
import { controlRoutes } from './routes/control.js';
import { consoleRoutes } from './routes/console.js';
import { cloneRoutes } from './routes/clones.js';
import { webRoutes } from './routes/web.js';
import { webhookRoutes } from './routes/webhooks.js';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    access?: import('../auth/authenticate.js').Access;
  }
}

export const DEFAULT_BODY_LIMIT = 256 * 1024;
export const BOT_FILE_BODY_LIMIT = 5 * 1024 * 1024;

export async function buildServer(services: Services, options: { logger?: boolean | object } = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: DEFAULT_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && /^[\w.:-]{1,128}$/.test(sent) ? sent : crypto.randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandling(app);
  installBodyParsers(app);
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    (request as { startedAt?: bigint }).startedAt = process.hrtime.bigint();
  });
  // One log line per request, written when the answer has gone out.
  app.addHook('onResponse', async (request, reply) => {
    const started = (request as { startedAt?: bigint }).startedAt ?? process.hrtime.bigint();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const route = request.routeOptions.url ?? 'unknown';
    services.metrics.requests.inc({ route, status: String(reply.statusCode) });
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.method === 'POST') request.body = {};
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      throw new AppError('INVALID_REQUEST', 'Text may not contain NUL characters.');
    }
    const schema = request.routeOptions.schema;
    if (schema?.body && request.body && typeof request.body === 'object') {
      request.body = canonicalizeKeys(request.body, schema.body as object);
    }
    if (schema?.querystring && request.query && typeof request.query === 'object') {
      request.query = canonicalizeKeys(request.query, schema.querystring as object);
    }
  });
  // Authentication runs after the per-token rate limit (an onRequest hook) and before the body is read.
  app.addHook('preParsing', async (request, _reply, payload) => {
    const access = request.routeOptions.config?.access;
    if (access) request.principal = await services.auth.authenticate(request.headers.authorization, access);
    return payload;
  });

  if (services.config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      global: false,
      store: PerTokenStore,
      max: services.config.rateLimitPerMinute,
      timeWindow: 60_000,
      hook: 'onRequest',
      keyGenerator: (request) => request.headers.authorization ?? request.ip,
      errorResponseBuilder: (_request, context) =>
        new AppError('RATE_LIMITED', `Rate limit of ${context.max} requests a minute exceeded; retry in ${context.after}.`),
    });
  }

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Colloquy API', version: '1', description: 'Chatbot hosting, wire-compatible with the Xenioo integration API.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const routes = [operabilityRoutes, tokenRoutes, adminRoutes, botRoutes, customRoutes, apihookRoutes, controlRoutes, webhookRoutes, consoleRoutes, webRoutes, cloneRoutes];
  for (const register of routes) register(app, services);
  return app;
}

/** Route options for an authenticated route: who may call it, and its per-token rate limit. */
export function authed(access: import('../auth/authenticate.js').Access, services: Services): { config: FastifyContextConfig } {
  // With limits off (COLLOQUY_RATE_LIMIT_PER_MINUTE=0) the plugin is not registered and routes carry no rateLimit.
  return { config: services.config.rateLimitPerMinute > 0 ? { access, rateLimit: {} } : { access } };
}

/** NUL cannot be stored in PostgreSQL text; it is refused at the edge on every database alike. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  for (const [key, item] of Object.entries(value)) if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  return false;
}

function installBodyParsers(app: App): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // An empty body is read as {} (api.md Conventions: on the chat endpoints that is a RESET).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, {});
    defaultJson(request, body as string, done);
  });
  // Bot files may come as YAML; the bot routes parse the text themselves.
  app.addContentTypeParser(['application/yaml', 'application/x-yaml', 'text/yaml'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
}
