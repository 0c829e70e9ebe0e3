// knowledge.md "Sources": a bot's documents, their search and the answers drawn from them. Each
// route is reachable two ways with one handler, as the designer's are (routes/designer.ts):
// - /bots/{APIKey}/knowledge...           an account token (the integration API);
// - /console/api/bots/{botId}/knowledge... a signed-in operator whose role opens `design`
//   (designer or admin: designer.md "Who" gives knowledge to designers; an agent has conversations
//   only and is refused every one of these, reads included, 403 ROLE_FORBIDDEN), with the session
//   cookie behind the console's cross-site guard (operatorSignIn's ambientCredential mark).
// Documents are JSON bodies of up to 10 MiB of text (the body limit leaves room for JSON escaping,
// and the service measures the text itself: 413 past 10 MiB), or a file of up to 10 MiB sent as
// multipart/form-data (uploads.ts).
import { Readable } from 'node:stream';
import { Type, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';
import { KNOWLEDGE_LIMITS } from '../../knowledge/bot-limits.js';
import { roundScore, type SourceBody } from '../../knowledge/service.js';
import type { ErrorCode } from '../../shared/errors.js';
import { AppError } from '../../shared/errors.js';
import { acceptUploads, type UploadFields } from '../uploads.js';
import { DEFAULT_KNOWLEDGE_TIMEOUT_MS, DEFAULT_MAX_PASSAGES } from '../../shared/knowledge-defaults.js';
import { authed, KNOWLEDGE_BODY_LIMIT, type App } from '../app.js';
import { AskBody, KnowledgeAnswer, SearchBody, SearchResults, Source, SourceBodies, Sources, SourceWithPassages } from '../knowledge-schemas.js';
import type { Services } from '../services.js';
import { consoleTwinSchema, operatorSignIn } from './console-session.js';
import { bundledPageRoutes } from './bundled-page.js';
import { knowledgeBundle } from '../../knowledge/page-bundle.js';

const DOCUMENT_ERRORS: ErrorCode[] = ['BOT_NOT_FOUND', 'MISSING_FIELD', 'INVALID_DOCUMENT', 'LIMIT_EXCEEDED', 'STATE_CONFLICT', 'KNOWLEDGE_BUSY'];
const SourceId = { SourceId: Type.String({ maxLength: 64 }) };

interface KnowledgeRoute {
  method: HTTPMethods;
  /** after /bots/{bot} */
  path: string;
  summary: string;
  /** a document body: JSON or a multipart upload, with the knowledge body limit */
  document?: boolean;
  params?: Record<string, TSchema>;
  body?: TSchema | object;
  response: Record<number, TSchema | object>;
  errors: ErrorCode[];
  handle: (bot: BotRecord, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** The JSON body as it is, or an upload's parts as the service's body. */
function sourceBodyOf(request: FastifyRequest): SourceBody {
  if (!request.isMultipart()) {
    // A request with no body at all skips the schema (nothing to check): refused here, not a 500.
    if (typeof request.body !== 'object' || request.body === null) throw new AppError('INVALID_REQUEST', 'A source is sent as a JSON body or a file upload.', { Field: 'body' });
    return request.body as SourceBody;
  }
  const { Name, file } = request.body as UploadFields;
  return { Name, Upload: file };
}

const sourceIdOf = (request: FastifyRequest) => (request.params as { SourceId: string }).SourceId;

function knowledgeRoutesOf(s: Services): KnowledgeRoute[] {
  return [
    {
      method: 'POST',
      path: '/knowledge',
      document: true,
      summary: 'Add a source (JSON or a file upload): indexed before the answer up to 1 MiB, else `indexing`',
      body: SourceBodies,
      response: { 201: Source },
      errors: DOCUMENT_ERRORS,
      handle: async (bot, request, reply) => reply.status(201).send(await s.knowledge.add(bot, sourceBodyOf(request))),
    },
    {
      method: 'PUT',
      path: '/knowledge/:SourceId',
      document: true,
      summary: 'Replace a source (JSON or a file upload): its old passages are gone at once',
      params: SourceId,
      body: SourceBodies,
      response: { 200: Source },
      errors: ['SOURCE_NOT_FOUND', ...DOCUMENT_ERRORS],
      handle: async (bot, request) => s.knowledge.replace(bot, sourceIdOf(request), sourceBodyOf(request)),
    },
    {
      method: 'GET',
      path: '/knowledge',
      summary: "The bot's sources, newest first",
      response: { 200: Sources },
      errors: ['BOT_NOT_FOUND'],
      handle: async (bot) => s.knowledge.list(bot),
    },
    {
      method: 'GET',
      path: '/knowledge/:SourceId',
      summary: 'A source and its passages in document order',
      params: SourceId,
      response: { 200: SourceWithPassages },
      errors: ['BOT_NOT_FOUND', 'SOURCE_NOT_FOUND'],
      // streamed a page of passages at a time (knowledge/source-text.ts): never one large string on the loop
      handle: async (bot, request, reply) => reply.type('application/json; charset=utf-8').send(Readable.from(await s.knowledge.get(bot, sourceIdOf(request)))),
    },
    {
      method: 'DELETE',
      path: '/knowledge/:SourceId',
      summary: 'Delete a source and its passages',
      params: SourceId,
      response: { 204: { description: 'Deleted', type: 'null' } },
      errors: ['BOT_NOT_FOUND', 'SOURCE_NOT_FOUND', 'STATE_CONFLICT'],
      handle: async (bot, request, reply) => {
        await s.knowledge.remove(bot, sourceIdOf(request));
        return reply.code(204).send(null);
      },
    },
    {
      method: 'POST',
      path: '/knowledge/search',
      summary: 'The passages that best match a text (full-text, BM25-ranked)',
      body: SearchBody,
      response: { 200: SearchResults },
      errors: ['BOT_NOT_FOUND', 'KNOWLEDGE_BUSY'],
      handle: async (bot, request) => {
        const body = request.body as { Text: string; Limit?: number };
        return s.knowledge.search(bot, body.Text, body.Limit ?? KNOWLEDGE_LIMITS.searchDefault);
      },
    },
    {
      method: 'POST',
      path: '/knowledge/ask',
      summary: 'What the `knowledge` action would answer',
      body: AskBody,
      response: { 200: KnowledgeAnswer },
      errors: ['BOT_NOT_FOUND'],
      handle: async (bot, request) => {
        const answer = await s.knowledgeAnswers.ask(bot, (request.body as { Text: string }).Text, { instructions: '', maxPassages: DEFAULT_MAX_PASSAGES, timeoutMs: DEFAULT_KNOWLEDGE_TIMEOUT_MS });
        // exactly what the action would do, usage included (knowledge.md "Answers")
        if (answer.calledProvider) await s.accounts.countProviderCall(bot.accountId, answer.tokens);
        return {
          Status: answer.status,
          Answer: answer.answer,
          Sources: answer.sources.map((x) => ({ SourceId: x.sourceId, SourceName: x.sourceName, ChunkId: x.chunkId })),
          Score: answer.score === null ? null : roundScore(answer.score),
          MinScore: answer.minScore,
        };
      },
    },
  ];
}

export function knowledgeRoutes(app: App, s: Services): void {
  const account = authed('account');
  const signedIn = operatorSignIn(app, s, 'design');
  const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;
  const paramsOf = (request: FastifyRequest) => request.params as Record<string, string>;
  const routes = knowledgeRoutesOf(s);

  const register = (scope: App, route: KnowledgeRoute) => {
    const schema = { summary: route.summary, ...(route.body ? { body: route.body } : {}), response: route.response };
    const bodyLimit = route.document ? { bodyLimit: KNOWLEDGE_BODY_LIMIT } : {};
    scope.route({
      method: route.method,
      url: `/bots/:APIKey${route.path}`,
      ...account,
      ...bodyLimit,
      schema: { ...schema, tags: ['knowledge'], security: [{ bearer: [] }], params: Type.Object({ APIKey: Type.String({ maxLength: 64 }), ...route.params }), errors: route.errors },
      handler: async (request, reply) => route.handle(await s.bots.owned(accountOf(request), paramsOf(request).APIKey), request, reply),
    });
    scope.route({
      method: route.method,
      url: `/console/api/bots/:botId${route.path}`,
      ...signedIn,
      ...bodyLimit,
      schema: { ...schema, ...consoleTwinSchema('knowledge (console session)', route.method as string, route.errors, route.params) },
      // a bot of another account answers as a missing one (404 BOT_NOT_FOUND)
      handler: async (request, reply) => route.handle(await s.consoleBots.open(request.operatorContext!, paramsOf(request).botId), request, reply),
    });
  };

  // POST and PUT take JSON or a multipart upload; multipart is accepted in their scope only
  app.register(async (scope: App) => {
    await acceptUploads(scope);
    for (const route of routes.filter((r) => r.document)) register(scope, route);
  });
  for (const route of routes.filter((r) => !r.document)) register(app, route);
  // the console's Knowledge page (ui/knowledge/), which calls the cookie twins above
  bundledPageRoutes(app, { url: '/console/knowledge', folder: 'knowledge', title: 'Knowledge', css: 'knowledge.css', bundle: knowledgeBundle });
}
