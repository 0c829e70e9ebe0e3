// agents.md "Trace": the steps of a conversation's latest agent turns, for the account (token) and
// for operators in the console (session; conversation data: roles agent and admin).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import { DEFAULT_TRACE_LIMIT, MAX_TRACE_LIMIT } from '../../conversations/agent-traces.js';
import { AppError } from '../../shared/errors.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { consoleTwinSchema, operatorSignIn } from './console-session.js';

const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }), UserId: Type.String({ minLength: 1, maxLength: 256 }) });
// Query strings are not coerced: the number is read by hand so that a bad one gets a clear 400.
const TraceQuery = Type.Object({ limit: Type.Optional(Type.String({ maxLength: 12 })) }, { additionalProperties: false });
const Step = Type.Object({
  Kind: Type.Union([Type.Literal('model'), Type.Literal('tool')]),
  Name: Type.Optional(Type.String()),
  Arguments: Type.Optional(Type.String({ description: 'as the model gave them, cut to 2 KB' })),
  Status: Type.String({ description: 'model: OK, ERROR, TIMEOUT, NOT_CONFIGURED, BUDGET; tool: OK, ERROR, TIMEOUT, APPROVAL' }),
  Ms: Type.Number(),
  Tokens: Type.Optional(Type.Number()),
  Error: Type.Optional(Type.String()),
  Result: Type.Optional(Type.String({ description: "the tool's result as the model read it, cut to 2 KB" })),
});
const TraceList = Type.Object({ Result: Type.Array(Type.Object({ At: Type.String({ description: 'ISO 8601, UTC' }), Steps: Type.Array(Step) })) });

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TRACE_LIMIT;
  const limit = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(limit >= 1 && limit <= MAX_TRACE_LIMIT)) throw new AppError('INVALID_REQUEST', `limit must be a whole number from 1 to ${MAX_TRACE_LIMIT}.`, { Field: 'limit' });
  return limit;
}

export function agentTraceRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['agents'], security: [{ bearer: [] }] } };
  const summary = "The steps of the conversation's latest agent turns, newest first";
  app.get(
    '/bots/:APIKey/conversations/:UserId/trace',
    { ...account, schema: { ...account.schema, summary, params: KeyParams, querystring: TraceQuery, response: { 200: TraceList }, errors: ['BOT_NOT_FOUND', 'CONVERSATION_NOT_FOUND'] } },
    async (request) => s.agentTraces.latest(await s.bots.owned(accountOf(request), request.params.APIKey), request.params.UserId, limitOf(request.query.limit)),
  );

  const signedIn = operatorSignIn(app, s, 'conversations');
  app.get(
    '/console/api/bots/:botId/conversations/:userId/trace',
    {
      ...signedIn,
      schema: {
        summary,
        querystring: TraceQuery,
        response: { 200: TraceList },
        ...consoleTwinSchema('agents (console session)', 'GET', ['CONVERSATION_NOT_FOUND'], { userId: Type.String({ minLength: 1, maxLength: 256 }) }),
      },
    },
    async (request) => {
      const { botId, userId } = request.params as { botId: string; userId: string };
      // another account's bot is no conversation of ours, as on every console conversation route
      const { conversation } = await s.console.find(request.operatorContext!, botId, userId);
      return s.agentTraces.of(conversation, limitOf(request.query.limit));
    },
  );
}
