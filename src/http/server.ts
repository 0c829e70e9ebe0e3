// The HTTP server: the only place that knows Fastify. Builds the app from the services that
// main.ts wired, with the conventions of api.md applied to every route.
import crypto from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AjvCompiler } from '@fastify/ajv-compiler';
import Fastify, { LogController, type FastifyReply } from 'fastify';
import type { Principal } from '../auth/authenticate.js';
import { AppError } from '../shared/errors.js';
import { mayHoldSurrogates, wellFormed } from '../shared/well-formed.js';
import { normalizeMembers } from './request-members.js';
import { UnparsedJson } from '../bots/parse.js';
import { OFF_THREAD_CHARS } from '../bots/reader.js';
import { installErrorHandling } from './errors.js';
import { installAccessControl } from './access.js';
import { installAuditLog } from './audit.js';
import { installResponses } from './responses.js';
import { registerApiDocs } from './api-docs.js';
import { BOT_FILE_BODY_LIMIT, DEFAULT_BODY_LIMIT, KNOWLEDGE_BODY_LIMIT, type App } from './app.js';

export type { App };
import { refuseUnboundedIntegers } from './bounded-integers.js';
import { answerExpectContinue, clientErrorAnswer, installCrossSiteGuard, installSecurityHeaders, loggedRoute } from './edge.js';
import type { Services } from './services.js';
import { adminRoutes } from './routes/admin.js';
import { adminSsoRoutes } from './routes/admin-sso.js';
import { consoleSsoRoutes } from './routes/console-sso.js';
import { botRoutes } from './routes/bots.js';
import { importRoutes } from './routes/imports.js';
import { understandingRoutes } from './routes/understanding.js';
import { analyticsRoutes } from './routes/analytics.js';
import { consoleBotRoutes } from './routes/console-bots.js';
import { consoleTeamRoutes } from './routes/console-team.js';
import { operabilityRoutes } from './routes/operability.js';
import { tokenRoutes } from './routes/token.js';
import { customRoutes } from './routes/custom.js';
import { apihookRoutes } from './routes/apihook.js';
import { controlRoutes } from './routes/control.js';
import { consoleRoutes } from './routes/console.js';
import { cloneRoutes } from './routes/clones.js';
import { webRoutes } from './routes/web.js';
import { webhookRoutes } from './routes/webhooks.js';
import { channelRoutes } from './routes/channels.js';
import { consoleChannelRoutes } from './routes/console-channels.js';
import { agentRoutes } from './routes/agents.js';
import { agentTraceRoutes } from './routes/agent-traces.js';
import { agentApprovalRoutes } from './routes/agent-approvals.js';
import { designerRoutes } from './routes/designer.js';
import { knowledgeRoutes } from './routes/knowledge.js';
import { broadcastRoutes } from './routes/broadcasts.js';
import { broadcastConsoleRoutes } from './routes/broadcasts-console.js';
import { designerPageRoutes } from './routes/designer-page.js';
import { auditRoutes } from './routes/audit.js';
import { governanceRoutes } from './routes/governance.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * One validator pool for every server of the process (Fastify makes one per instance): the route
 * schemas are the same objects each time, so a second server (tests start hundreds, a node one)
 * reuses what the first compiled instead of compiling all 200-odd routes again.
 */
const sharedValidators = AjvCompiler();

export async function buildServer(services: Services, options: { logger?: boolean | object } = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: DEFAULT_BODY_LIMIT,
    // a hop count works at run time (Fastify's proxy-addr) though its types leave numbers out
    trustProxy: services.config.trustProxy as boolean | string[],
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && /^[\w.:-]{1,128}$/.test(sent) ? sent : crypto.randomUUID();
    },
    // user ids (up to 256 characters, percent-encoded) travel in console paths
    routerOptions: { maxParamLength: 1024 },
    // a body with __proto__ or constructor.prototype keys loses them, like any unknown member
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // what the router refuses before any route runs (a bad percent-encoding, an over-long
    // parameter) is answered from the catalogue like everything else
    frameworkErrors: (error, request, reply) => {
      const known = new AppError(
        error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'NOT_FOUND' : 'INVALID_REQUEST',
        error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long.' : 'The URL is not validly encoded.',
      );
      return (reply as unknown as FastifyReply).status(known.status).header('X-Request-Id', request.id).send(known.toBody());
    },
    clientErrorHandler: clientErrorAnswer,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: sharedValidators } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandling(app);
  closeConnectionsAsTheyIdle(app);
  installBodyParsers(app);
  installSecurityHeaders(app);
  answerExpectContinue(app.server, (method, url) => (isBotFileRoute(method, url) ? BOT_FILE_BODY_LIMIT : isKnowledgeDocumentRoute(method, url) ? KNOWLEDGE_BODY_LIMIT : DEFAULT_BODY_LIMIT));
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    (request as { startedAt?: bigint }).startedAt = process.hrtime.bigint();
    // NUL cannot be stored in PostgreSQL text; refused at the edge on every database alike, before
    // any route's own hook looks a path parameter up (a web key, a share code)
    if (containsNul(request.params) || containsNul(request.query)) throw new AppError('INVALID_REQUEST', 'Text may not contain NUL characters.');
  });
  installCrossSiteGuard(app, () => services.config.publicUrl);
  refuseUnboundedIntegers(app);
  // One log line per request, written when the answer has gone out.
  app.addHook('onResponse', async (request, reply) => {
    const started = (request as { startedAt?: bigint }).startedAt ?? process.hrtime.bigint();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const route = request.routeOptions.url ?? 'unknown';
    services.metrics.requests.inc({ route, status: String(reply.statusCode) });
    request.log.info({ method: request.method, route: loggedRoute(request), status: reply.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.method === 'POST') request.body = {};
    const schema = request.routeOptions.schema;
    // a route taking several media types names a schema for each (knowledge uploads)
    const bodySchema = (schema?.body as { content?: Record<string, { schema: object }> } | undefined)?.content?.[request.mediaType ?? '']?.schema ?? schema?.body;
    if (bodySchema && request.body && typeof request.body === 'object') {
      request.body = normalizeMembers(request.body, bodySchema as object);
    }
    if (schema?.querystring && request.query && typeof request.query === 'object') {
      request.query = normalizeMembers(request.query, schema.querystring as object);
    }
    // after unknown members are dropped: a NUL in a member we ignore changes nothing
    if (containsNul(request.body)) throw new AppError('INVALID_REQUEST', 'Text may not contain NUL characters.');
  });

  await installAccessControl(app, services);
  installAuditLog(app, services);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Colloquy API', version: '1', description: 'Chatbot hosting, wire-compatible with the Xenioo integration API.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // the designer's cookie routes (docs/designer.md); the rest of the console API is not documented here
          consoleSession: { type: 'apiKey', in: 'cookie', name: 'colloquy_console' },
        },
      },
    },
    // shared schemas (ErrorResponse) keep their names in components.schemas
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await registerApiDocs(app);

  installResponses(app, { checkResponses: services.config.checkResponses === true });
  const routes = [
    operabilityRoutes,
    tokenRoutes,
    adminRoutes,
    adminSsoRoutes,
    botRoutes,
    importRoutes,
    understandingRoutes,
    customRoutes,
    apihookRoutes,
    controlRoutes,
    webhookRoutes,
    consoleRoutes,
    analyticsRoutes,
    webRoutes,
    cloneRoutes,
    channelRoutes,
    knowledgeRoutes,
    broadcastRoutes,
    broadcastConsoleRoutes,
    designerRoutes,
    designerPageRoutes,
    consoleBotRoutes,
    consoleChannelRoutes,
    consoleTeamRoutes,
    consoleSsoRoutes,
    auditRoutes,
    governanceRoutes,
    agentRoutes,
    agentTraceRoutes,
    agentApprovalRoutes,
  ];
  for (const register of routes) register(app, services);
  return app;
}

const BOT_FILE_ROUTES = /^(POST \/bots(\/restore)?|PUT \/bots\/[^/?]+|PUT \/console\/api\/bots\/[^/?]+\/draft)\/?(\?|$)/;
const isBotFileRoute = (method: string, url: string) => BOT_FILE_ROUTES.test(`${method} ${url}`);
const KNOWLEDGE_DOCUMENT_ROUTES = /^(POST (\/console\/api)?\/bots\/[^/?]+\/knowledge|PUT (\/console\/api)?\/bots\/[^/?]+\/knowledge\/[^/?]+)\/?(\?|$)/;
const isKnowledgeDocumentRoute = (method: string, url: string) => KNOWLEDGE_DOCUMENT_ROUTES.test(`${method} ${url}`);

/** NUL cannot be stored in PostgreSQL text; it is refused at the edge on every database alike. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  for (const [key, item] of Object.entries(value)) if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  return false;
}

function installBodyParsers(app: App): void {
  const defaultJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  // An empty body is read as {} (api.md Conventions: on the chat endpoints that is a RESET).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, {});
    // A large bot file is parsed, as JSON with these same rules, off the request thread (bots/reader.ts):
    // the routes that take one are those whose body limit is the bot files' (issue 35)
    if (request.routeOptions.bodyLimit === BOT_FILE_BODY_LIMIT && (body as string).length > OFF_THREAD_CHARS) return done(null, new UnparsedJson(body as string));
    // a lone surrogate escape ("\ud800") becomes U+FFFD here, for every JSON body (decisions.md)
    defaultJson(request, body as string, (error, parsed) => (error ? done(error, undefined) : done(null, mayHoldSurrogates(body as string) ? wellFormed(parsed) : parsed)));
  });
  // Bot files may come as YAML; the bot routes parse the text themselves.
  app.addContentTypeParser(['application/yaml', 'application/x-yaml', 'text/yaml'], { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/**
 * A graceful stop waits for every open connection. Node closes those idle when close() begins; a
 * keep-alive connection whose in-flight answer ends later stayed open for Fastify's keep-alive
 * timeout (72 s): a node took 70 s to stop after SIGTERM (test/e2e/shutdown.test.ts). While
 * closing, idle connections are closed as they appear; nothing runs on the request path.
 */
function closeConnectionsAsTheyIdle(app: App): void {
  let timer: NodeJS.Timeout | null = null;
  app.addHook('preClose', async () => {
    timer = setInterval(() => app.server.closeIdleConnections(), 50);
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
