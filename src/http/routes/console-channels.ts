// The console's channel settings (issue 41, docs/decisions.md "Channel settings live in the
// designer's Install tab"): the cookie twins of GET/PUT/DELETE /bots/{APIKey}/channels for a bot
// of the operator's account. Designers and admins (the `design` area): connecting puts the bot on
// a platform, as publishing puts it live. The list adds what a form needs: each platform's
// declared connect form and the URLs to paste into the platform's settings.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { channelSettings } from '../../channels/messaging/channel-settings.js';
import type { App } from '../app.js';
import { ChannelSettingsList, ConnectBody } from '../channel-schemas.js';
import type { Services } from '../services.js';
import { ConnectedChannel } from '../wire-schemas.js';
import { consoleTwinSchema, operatorSignIn } from './console-session.js';

const TAG = 'channels (console session)';
const ChannelParam = { Channel: Type.String({ maxLength: 32 }) };

export function consoleChannelRoutes(app: App, s: Services): void {
  const design = operatorSignIn(app, s, 'design');
  const botOf = (request: FastifyRequest) => s.consoleBots.open(request.operatorContext!, (request.params as { botId: string }).botId);
  const connections = s.channels.connections;
  const channelOf = (request: FastifyRequest) => (request.params as { Channel: string }).Channel;

  app.get(
    '/console/api/bots/:botId/channels',
    {
      ...design,
      schema: {
        ...consoleTwinSchema(TAG, 'GET', ['BOT_NOT_FOUND']),
        summary: "The bot's messaging channels with their state and connect forms (no credential ever)",
        response: { 200: ChannelSettingsList },
      },
    },
    async (request) => ({ Result: channelSettings(await connections.list(await botOf(request)), connections.platforms()) }),
  );

  app.put(
    '/console/api/bots/:botId/channels/:Channel',
    {
      ...design,
      schema: {
        ...consoleTwinSchema(TAG, 'PUT', ['BOT_NOT_FOUND', 'NOT_FOUND', 'MISSING_FIELD', 'INVALID_REQUEST', 'CHANNEL_REJECTED'], ChannelParam),
        summary: 'PUT /bots/{APIKey}/channels/{Channel}: connect the bot to a messaging platform',
        body: ConnectBody,
        response: { 200: ConnectedChannel },
      },
    },
    async (request) => connections.connect(await botOf(request), channelOf(request), request.body),
  );

  app.delete(
    '/console/api/bots/:botId/channels/:Channel',
    {
      ...design,
      schema: {
        ...consoleTwinSchema(TAG, 'DELETE', ['BOT_NOT_FOUND', 'NOT_FOUND'], ChannelParam),
        summary: 'DELETE /bots/{APIKey}/channels/{Channel}: disconnect; the credentials are erased',
        response: { 204: { description: 'Disconnected (or was not connected)', type: 'null' } },
      },
    },
    async (request, reply) => {
      const bot = await botOf(request);
      connections.platform(channelOf(request));
      await connections.disconnect(bot, channelOf(request));
      return reply.code(204).send(null);
    },
  );
}
