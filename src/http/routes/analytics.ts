// Per-bot analytics and the flow picture (docs/analytics.md): for integrations with an account
// token (/bots/{APIKey}/analytics, /bots/{APIKey}/flow), for the signed-in operator's analytics
// page (/console/api/bots/...), and the page itself (/console/analytics). The work is done by
// analytics/service.ts; this file only maps HTTP to it.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CsvResponse as Csv, sendCsv } from '../csv-reply.js';
import type { AccountRecord } from '../../accounts/model.js';
import { figuresCsv } from '../../analytics/csv.js';
import { analyticsBundle } from '../../analytics/page-bundle.js';
import type { BotRecord } from '../../bots/model.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { BotAnalytics, BotFlow } from '../analytics-schemas.js';
import { operatorSignIn } from './console-session.js';
import { bundledPageRoutes } from './bundled-page.js';

const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });
const BotParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }) });
// Dates are checked by analytics/period.ts, so that a bad one gets a clear INVALID_REQUEST.
const PeriodQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD (UTC), default 29 days before `to`' })),
    to: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD (UTC), default today; at most 366 days in all' })),
  },
  { additionalProperties: false },
);
const BotPicker = Type.Object({ Result: Type.Array(Type.Object({ BotId: Type.String(), Name: Type.String(), Published: Type.Boolean() })) });

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

export function analyticsRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['analytics'], security: [{ bearer: [] }] } };
  const owned = (request: FastifyRequest) => s.bots.owned(accountOf(request), (request.params as { APIKey: string }).APIKey);

  app.get(
    '/bots/:APIKey/analytics',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'Conversations, messages, hand-overs and fallbacks per day, and where conversations stop',
        params: KeyParams,
        querystring: PeriodQuery,
        response: { 200: BotAnalytics },
        errors: ['BOT_NOT_FOUND'],
      },
    },
    async (request) => s.analytics.of(await owned(request), request.query),
  );
  app.get(
    '/bots/:APIKey/flow',
    {
      ...account,
      schema: { ...account.schema, summary: "The live version's behaviours, interactions and the goTo paths between them", params: KeyParams, response: { 200: BotFlow }, errors: ['BOT_NOT_FOUND'] },
    },
    async (request) => s.analytics.flow(await owned(request)),
  );

  // CSV exports (docs/analytics.md "CSV exports"): the figures, and the transcripts of the period.
  const figures = async (bot: BotRecord, query: { from?: string; to?: string }, reply: FastifyReply) => {
    const data = await s.analytics.of(bot, query);
    return sendCsv(reply, `analytics-${data.From}-${data.To}`, figuresCsv(data));
  };
  const transcripts = (bot: BotRecord, query: { from?: string; to?: string }, reply: FastifyReply) => {
    const out = s.analytics.transcripts(bot, query);
    return sendCsv(reply, `transcripts-${out.From}-${out.To}`, out.chunks);
  };
  app.get(
    '/bots/:APIKey/analytics.csv',
    {
      ...account,
      schema: { ...account.schema, summary: 'The analytics figures as CSV: a row per day and a total', params: KeyParams, querystring: PeriodQuery, response: Csv, errors: ['BOT_NOT_FOUND'] },
    },
    async (request, reply) => figures(await owned(request), request.query, reply),
  );
  app.get(
    '/bots/:APIKey/transcripts.csv',
    {
      ...account,
      schema: { ...account.schema, summary: 'The messages written in the period as CSV, by conversation', params: KeyParams, querystring: PeriodQuery, response: Csv, errors: ['BOT_NOT_FOUND'] },
    },
    async (request, reply) => transcripts(await owned(request), request.query, reply),
  );

  // The same for the console's analytics page, signed in with the operator's session cookie.
  const signedIn = operatorSignIn(app, s, 'design');
  const tags = ['operator console'];
  const ctxOf = (request: FastifyRequest) => request.operatorContext!;
  app.get('/console/api/bots', { ...signedIn, schema: { hide: true, tags, summary: "The account's bots", response: { 200: BotPicker } } }, async (request) => ({
    Result: await s.consoleBots.of(ctxOf(request)),
  }));
  app.get(
    '/console/api/bots/:botId/analytics',
    { ...signedIn, schema: { hide: true, tags, summary: "A bot's analytics", params: BotParams, querystring: PeriodQuery, response: { 200: BotAnalytics } } },
    async (request) => s.analytics.of(await s.consoleBots.open(ctxOf(request), request.params.botId), request.query),
  );
  app.get('/console/api/bots/:botId/flow', { ...signedIn, schema: { hide: true, tags, summary: "A bot's flow", params: BotParams, response: { 200: BotFlow } } }, async (request) =>
    s.analytics.flow(await s.consoleBots.open(ctxOf(request), request.params.botId)),
  );

  app.get('/console/api/bots/:botId/analytics.csv', { ...signedIn, schema: { hide: true, tags, params: BotParams, querystring: PeriodQuery } }, async (request, reply) =>
    figures(await s.consoleBots.open(ctxOf(request), request.params.botId), request.query, reply),
  );
  // Transcripts are conversations: an operator whose role opens them (agent, admin), as the inbox.
  const conversations = operatorSignIn(app, s, 'conversations');
  app.get('/console/api/bots/:botId/transcripts.csv', { ...conversations, schema: { hide: true, tags, params: BotParams, querystring: PeriodQuery } }, async (request, reply) =>
    transcripts(await s.consoleBots.open(ctxOf(request), request.params.botId), request.query, reply),
  );

  bundledPageRoutes(app, { url: '/console/analytics', folder: 'analytics', title: 'Analytics', css: 'analytics.css', bundle: analyticsBundle });
}
