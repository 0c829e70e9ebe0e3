// api.md section 12: the deliveries list and retry (account token, or the bot's own token).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/authenticate.js';
import { AppError } from '../../shared/errors.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { Deliveries, RetriedDelivery } from '../wire-schemas.js';
import type { BotRecord } from '../../bots/model.js';

async function botOf(s: Services, request: FastifyRequest): Promise<BotRecord> {
  const apiKey = (request.params as { APIKey: string }).APIKey;
  const principal = request.principal as Exclude<Principal, { kind: 'admin' }>;
  if (principal.kind === 'bot') {
    if (principal.bot.apiKey !== apiKey) throw new AppError('TOKEN_SCOPE', 'A bot token only opens its own bot.');
    return principal.bot;
  }
  return s.bots.owned(principal.account, apiKey);
}

export function webhookRoutes(app: App, s: Services): void {
  const route = { ...authed('accountOrBot'), schema: { tags: ['webhooks'], security: [{ bearer: [] }] } };
  const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });

  app.get(
    '/bots/:APIKey/deliveries',
    { ...route, schema: { ...route.schema, summary: 'Webhook deliveries, newest first', params: KeyParams, response: { 200: Deliveries }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => ({
      Result: await s.deliveries.list(await botOf(s, request)),
    }),
  );

  app.post(
    '/bots/:APIKey/deliveries/:DeliveryId/retry',
    {
      ...route,
      schema: {
        ...route.schema,
        summary: 'Send one delivery again',
        params: Type.Object({ APIKey: Type.String({ maxLength: 64 }), DeliveryId: Type.String({ maxLength: 64 }) }),
        response: { 200: RetriedDelivery },
        errors: ['BOT_NOT_FOUND', 'DELIVERY_NOT_FOUND'],
      },
    },
    async (request) => s.deliveries.retry(await botOf(s, request), request.params.DeliveryId),
  );
}
