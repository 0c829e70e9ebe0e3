// understanding.md: the parse endpoint, the missed texts and a bot's own AI provider (account token).
import { Type } from 'typebox';
import { AppError } from '../../shared/errors.js';
import { MISSED_DEFAULT_LIMIT, MISSED_MAX_LIMIT } from '../../bots/understanding-service.js';
import { authed, type App } from '../app.js';
import { VersionNumber } from '../bounded-integers.js';
import { AiSettings, MissedTexts, ParsedText } from '../wire-schemas.js';
import type { Services } from '../services.js';
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';

const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });
/** Ample for any chat message; the model's cost grows with the text. */
const MAX_TEXT = 16 * 1024;

const ParseBody = Type.Object(
  {
    Text: Type.String({ maxLength: MAX_TEXT, description: 'the text to understand' }),
    Version: Type.Optional(VersionNumber({ description: 'a published version (default the live one)' })),
  },
  { additionalProperties: false },
);
// Query strings are not coerced: the number is read by hand so that a bad one gets a clear 400.
const MissedQuery = Type.Object({ limit: Type.Optional(Type.String({ maxLength: 12 })) }, { additionalProperties: false });
const AiBody = Type.Object(
  {
    BaseUrl: Type.String({ minLength: 1, maxLength: 2048, description: 'an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1' }),
    Model: Type.String({ minLength: 1, maxLength: 256 }),
    ApiKey: Type.Optional(Type.String({ maxLength: 4096, description: 'stored encrypted, never returned; absent keeps the stored one, unless BaseUrl changes (then required)' })),
    EmbeddingModel: Type.Optional(
      Type.String({
        maxLength: 256,
        description:
          "an embedding model on the same endpoint and key, for hybrid knowledge search and intents (knowledge.md); absent or '': the server's COLLOQUY_AI_EMBEDDING_MODEL, if any. A change re-embeds the bot's passages",
      }),
    ),
  },
  { additionalProperties: false },
);

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return MISSED_DEFAULT_LIMIT;
  const limit = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(limit >= 1 && limit <= MISSED_MAX_LIMIT)) {
    throw new AppError('INVALID_REQUEST', `limit must be a whole number from 1 to ${MISSED_MAX_LIMIT}.`, { Field: 'limit' });
  }
  return limit;
}

export function understandingRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['understanding'], security: [{ bearer: [] }] } };
  const owned = (request: FastifyRequest) => s.bots.owned(accountOf(request), (request.params as { APIKey: string }).APIKey);

  app.post(
    '/bots/:APIKey/nlp/parse',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: "What a version's model makes of a text",
        params: KeyParams,
        body: ParseBody,
        response: { 200: ParsedText },
        errors: ['BOT_NOT_FOUND', 'VERSION_NOT_FOUND', 'MISSING_FIELD'],
      },
    },
    async (request) => s.understanding.parse(await owned(request), request.body.Text, request.body.Version),
  );

  app.get(
    '/bots/:APIKey/missed',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'User texts that reached a fallback, most frequent first',
        params: KeyParams,
        querystring: MissedQuery,
        response: { 200: MissedTexts },
        errors: ['BOT_NOT_FOUND'],
      },
    },
    async (request) => {
      const limit = limitOf(request.query.limit);
      return s.understanding.missed(await owned(request), limit);
    },
  );

  app.get(
    '/bots/:APIKey/ai',
    { ...account, schema: { ...account.schema, summary: "The bot's AI provider (never its key)", params: KeyParams, response: { 200: AiSettings }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => s.understanding.aiSettings(await owned(request)),
  );

  app.put(
    '/bots/:APIKey/ai',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: "Set the bot's own AI provider; effective at once",
        params: KeyParams,
        body: AiBody,
        response: { 200: AiSettings },
        errors: ['BOT_NOT_FOUND', 'MISSING_FIELD'],
      },
    },
    async (request) => s.understanding.putAiSettings(await owned(request), request.body),
  );

  app.delete(
    '/bots/:APIKey/ai',
    { ...account, schema: { ...account.schema, summary: "Remove the bot's own AI provider", params: KeyParams, response: { 200: AiSettings }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => s.understanding.deleteAiSettings(await owned(request)),
  );
}
