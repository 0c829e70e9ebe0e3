// The console's broadcasts page (/console/broadcasts) and the API it reads with the operator's
// session cookie: the same service as /bots/{APIKey}/broadcasts, for a bot of the operator's
// account (admins and designers: the `design` area, as analytics).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { broadcastsBundle } from '../../broadcasts/page-bundle.js';
import type { CreateBody } from '../../broadcasts/service.js';
import type { App } from '../app.js';
import { BroadcastList, BroadcastView, CreateBroadcastBody, PreviewAnswer, PreviewBody } from '../broadcast-schemas.js';
import type { Services } from '../services.js';
import { operatorSignIn } from './console-session.js';
import { bundledPageRoutes } from './bundled-page.js';

const BroadcastChannels = Type.Object({ Result: Type.Array(Type.String(), { description: 'web first, then the connected ones' }) });
const BotParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }) });
const OneParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }), BroadcastId: Type.String({ maxLength: 64 }) });

/** The widget is always there to broadcast to; the API channel once it has a webhook (an app to deliver to); the platforms once connected. */
function broadcastChannels(listing: Array<{ Channel: string; Enabled: boolean; WebhookUrl: string | null }>): string[] {
  const usable = listing.filter((c) => c.Channel !== 'web' && (c.Channel === 'custom' ? c.WebhookUrl !== null : c.Enabled)).map((c) => c.Channel);
  return ['web', ...usable];
}

export function broadcastConsoleRoutes(app: App, s: Services): void {
  const signedIn = operatorSignIn(app, s, 'design');
  const schema = { hide: true, tags: ['operator console'] };
  const bot = (request: FastifyRequest) => s.consoleBots.open(request.operatorContext!, (request.params as { botId: string }).botId);

  app.get('/console/api/bots/:botId/broadcasts', { ...signedIn, schema: { ...schema, params: BotParams, response: { 200: BroadcastList } } }, async (request) => s.broadcasts.list(await bot(request)));
  app.post('/console/api/bots/:botId/broadcasts', { ...signedIn, schema: { ...schema, params: BotParams, body: CreateBroadcastBody, response: { 201: BroadcastView } } }, async (request, reply) =>
    reply.status(201).send(await s.broadcasts.create(await bot(request), request.body as CreateBody)),
  );
  app.post('/console/api/bots/:botId/broadcasts/preview', { ...signedIn, schema: { ...schema, params: BotParams, body: PreviewBody, response: { 200: PreviewAnswer } } }, async (request) =>
    s.broadcasts.preview(await bot(request), request.body.Audience),
  );
  app.get('/console/api/bots/:botId/broadcasts/:BroadcastId', { ...signedIn, schema: { ...schema, params: OneParams, response: { 200: BroadcastView } } }, async (request) =>
    s.broadcasts.get(await bot(request), request.params.BroadcastId),
  );
  // the channels a broadcast may choose: those the bot has connected (docs/decisions.md "Broadcasts offer connected channels")
  app.get('/console/api/bots/:botId/broadcast-channels', { ...signedIn, schema: { ...schema, params: BotParams, response: { 200: BroadcastChannels } } }, async (request) => ({
    Result: broadcastChannels(await s.channels.connections.list(await bot(request))),
  }));
  app.post('/console/api/bots/:botId/broadcasts/:BroadcastId/cancel', { ...signedIn, schema: { ...schema, params: OneParams, response: { 200: BroadcastView } } }, async (request) =>
    s.broadcasts.cancel(await bot(request), request.params.BroadcastId),
  );

  bundledPageRoutes(app, { url: '/console/broadcasts', folder: 'broadcasts', title: 'Broadcasts', css: 'broadcasts.css', bundle: broadcastsBundle });
}
