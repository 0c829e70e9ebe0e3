// Per-bot analytics and the flow picture (docs/analytics.md): for integrations with an account
// token (/bots/{APIKey}/analytics, /bots/{APIKey}/flow), for the signed-in operator's analytics
// page (/console/api/bots/...), and the page itself (/console/analytics). The work is done by
// analytics/service.ts; this file only maps HTTP to it.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import { analyticsBundle } from '../../analytics/page-bundle.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { BotAnalytics, BotFlow } from '../wire-schemas.js';
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
    { ...account, schema: { ...account.schema, summary: 'Conversations, messages, hand-overs and fallbacks per day, and where conversations stop', params: KeyParams, querystring: PeriodQuery, response: { 200: BotAnalytics }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => s.analytics.of(await owned(request), request.query),
  );
  app.get(
    '/bots/:APIKey/flow',
    { ...account, schema: { ...account.schema, summary: "The live version's behaviours, interactions and the goTo paths between them", params: KeyParams, response: { 200: BotFlow }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => s.analytics.flow(await owned(request)),
  );

  // The same for the console's analytics page, signed in with the operator's session cookie.
  const signedIn = operatorSignIn(app, s, 'design');
  const tags = ['operator console'];
  const ctxOf = (request: FastifyRequest) => request.operatorContext!;
  app.get('/console/api/bots', { ...signedIn, schema: { hide: true, tags, summary: "The account's bots", response: { 200: BotPicker } } }, async (request) => ({
    Result: await s.analytics.botsOf(ctxOf(request)),
  }));
  app.get(
    '/console/api/bots/:botId/analytics',
    { ...signedIn, schema: { hide: true, tags, summary: "A bot's analytics", params: BotParams, querystring: PeriodQuery, response: { 200: BotAnalytics } } },
    async (request) => s.analytics.of(await s.analytics.consoleBot(ctxOf(request), request.params.botId), request.query),
  );
  app.get('/console/api/bots/:botId/flow', { ...signedIn, schema: { hide: true, tags, summary: "A bot's flow", params: BotParams, response: { 200: BotFlow } } }, async (request) =>
    s.analytics.flow(await s.analytics.consoleBot(ctxOf(request), request.params.botId)),
  );

  bundledPageRoutes(app, { url: '/console/analytics', folder: 'analytics', css: 'analytics.css', bundle: analyticsBundle });
}
