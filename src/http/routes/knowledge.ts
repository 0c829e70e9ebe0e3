// knowledge.md "Sources": a bot's documents, their search and the answers drawn from them
// (account token). Documents are JSON bodies of up to 10 MiB of text (the body limit leaves room
// for JSON escaping, and the service measures the text itself: 413 past 10 MiB), or a file of up
// to 10 MiB sent as multipart/form-data (uploads.ts).
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import { KNOWLEDGE_LIMITS, type SourceBody } from '../../knowledge/service.js';
import type { ErrorCode } from '../../shared/errors.js';
import { acceptUploads, type UploadFields } from '../uploads.js';
import { DEFAULT_KNOWLEDGE_TIMEOUT_MS, DEFAULT_MAX_PASSAGES } from '../../engine/actions/knowledge/index.js';
import { authed, KNOWLEDGE_BODY_LIMIT, type App } from '../app.js';
import { AskBody, KnowledgeAnswer, KnowledgeParams, SearchBody, SearchResults, Source, SourceBodies, SourceParams, Sources, SourceWithPassages } from '../knowledge-schemas.js';
import type { Services } from '../services.js';

const DOCUMENT_ERRORS: ErrorCode[] = ['BOT_NOT_FOUND', 'MISSING_FIELD', 'INVALID_DOCUMENT', 'LIMIT_EXCEEDED', 'STATE_CONFLICT', 'KNOWLEDGE_BUSY'];

/** The JSON body as it is, or an upload's parts as the service's body. */
function sourceBodyOf(request: FastifyRequest): SourceBody {
  if (!request.isMultipart()) return request.body as SourceBody;
  const { Name, file } = request.body as UploadFields;
  return { Name, Upload: file };
}

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

export function knowledgeRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['knowledge'], security: [{ bearer: [] }] } };
  const owned = (request: FastifyRequest) => s.bots.owned(accountOf(request), (request.params as { APIKey: string }).APIKey);
  const document = { ...account, bodyLimit: KNOWLEDGE_BODY_LIMIT };

  // POST and PUT take JSON or a multipart upload; multipart is accepted in their scope only
  app.register(async (scope: App) => {
    await acceptUploads(scope);
    scope.post(
      '/bots/:APIKey/knowledge',
      { ...document, schema: { ...account.schema, summary: 'Add a source (JSON or a file upload): indexed before the answer up to 1 MiB, else `indexing`', params: KnowledgeParams, body: SourceBodies, response: { 201: Source }, errors: DOCUMENT_ERRORS } },
      async (request, reply) => reply.status(201).send(await s.knowledge.add(await owned(request), sourceBodyOf(request))),
    );
    scope.put(
      '/bots/:APIKey/knowledge/:SourceId',
      { ...document, schema: { ...account.schema, summary: 'Replace a source (JSON or a file upload): its old passages are gone at once', params: SourceParams, body: SourceBodies, response: { 200: Source }, errors: ['SOURCE_NOT_FOUND', ...DOCUMENT_ERRORS] } },
      async (request) => s.knowledge.replace(await owned(request), request.params.SourceId, sourceBodyOf(request)),
    );
  });

  app.get('/bots/:APIKey/knowledge', { ...account, schema: { ...account.schema, summary: "The bot's sources, newest first", params: KnowledgeParams, response: { 200: Sources }, errors: ['BOT_NOT_FOUND'] } }, async (request) =>
    s.knowledge.list(await owned(request)),
  );

  app.get(
    '/bots/:APIKey/knowledge/:SourceId',
    { ...account, schema: { ...account.schema, summary: 'A source and its passages in document order', params: SourceParams, response: { 200: SourceWithPassages }, errors: ['BOT_NOT_FOUND', 'SOURCE_NOT_FOUND'] } },
    async (request) => s.knowledge.get(await owned(request), request.params.SourceId),
  );

  app.delete(
    '/bots/:APIKey/knowledge/:SourceId',
    { ...account, schema: { ...account.schema, summary: 'Delete a source and its passages', params: SourceParams, response: { 204: { description: 'Deleted', type: 'null' } }, errors: ['BOT_NOT_FOUND', 'SOURCE_NOT_FOUND', 'STATE_CONFLICT'] } },
    async (request, reply) => {
      await s.knowledge.remove(await owned(request), request.params.SourceId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/bots/:APIKey/knowledge/search',
    { ...account, schema: { ...account.schema, summary: 'The passages that best match a text (full-text, BM25-ranked)', params: KnowledgeParams, body: SearchBody, response: { 200: SearchResults }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => s.knowledge.search(await owned(request), request.body.Text, request.body.Limit ?? KNOWLEDGE_LIMITS.searchDefault),
  );

  app.post(
    '/bots/:APIKey/knowledge/ask',
    { ...account, schema: { ...account.schema, summary: 'What the `knowledge` action would answer', params: KnowledgeParams, body: AskBody, response: { 200: KnowledgeAnswer }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => {
      const bot = await owned(request);
      const answer = await s.knowledgeAnswers.ask(bot, request.body.Text, { instructions: '', maxPassages: DEFAULT_MAX_PASSAGES, timeoutMs: DEFAULT_KNOWLEDGE_TIMEOUT_MS });
      // exactly what the action would do, usage included (knowledge.md "Answers")
      if (answer.calledProvider) await s.accounts.countProviderCall(bot.accountId, answer.tokens);
      return {
        Status: answer.status,
        Answer: answer.answer,
        Sources: answer.sources.map((x) => ({ SourceId: x.sourceId, SourceName: x.sourceName, ChunkId: x.chunkId })),
      };
    },
  );
}
