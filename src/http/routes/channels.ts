// Messaging channels (channels.md): connecting a bot to Telegram, WhatsApp or Messenger with an
// account token, and the platforms' own webhook requests, verified before anything is stored.
import { Type } from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import { authed, DEFAULT_BODY_LIMIT, type App } from '../app.js';
import { ConnectBody } from '../channel-schemas.js';
import type { Services } from '../services.js';
import { ChannelList, ConnectedChannel, PlatformAck, textResponse } from '../wire-schemas.js';

const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });
const ChannelParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }), Channel: Type.String({ maxLength: 32 }) });
const WebhookParams = Type.Object({ Channel: Type.String({ maxLength: 32 }), ChannelId: Type.String({ maxLength: 128 }) });
const SubpathParams = Type.Object({ Channel: Type.String({ maxLength: 32 }), ChannelId: Type.String({ maxLength: 128 }), Subpath: Type.String({ maxLength: 32 }) });
/** `{ok: true}`, or what the platform wants back (Slack's challenge as text, Twilio's empty TwiML). */
const PlatformAnswer = { description: 'Received', content: { 'application/json': { schema: PlatformAck }, 'text/plain': { schema: { type: 'string' } }, 'text/xml': { schema: { type: 'string' } } } };

export function channelRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['channels'], security: [{ bearer: [] }] } };

  app.get(
    '/bots/:APIKey/channels',
    { ...account, schema: { ...account.schema, summary: "The bot's channels: custom, web and the messaging platforms", params: KeyParams, response: { 200: ChannelList }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => ({
      Result: await s.channels.connections.list(await s.bots.owned(accountOf(request), request.params.APIKey)),
    }),
  );

  app.put(
    '/bots/:APIKey/channels/:Channel',
    {
      ...account,
      schema: {
        ...account.schema,
        summary:
          'Connect the bot to a messaging platform (Telegram: {Token}; WhatsApp: {PhoneNumberId, AccessToken, AppSecret, VerifyToken?}; Messenger: {PageId, PageAccessToken, AppSecret, VerifyToken?}; Slack: {BotToken, SigningSecret}; SMS: {AccountSid, AuthToken, From}; Chatwoot: {BaseUrl, AccountId, BotToken, InboxIds?}; Instagram: {InstagramAccountId, PageAccessToken, AppSecret, VerifyToken?}; Teams: {AppId, AppPassword, TenantId?})',
        params: ChannelParams,
        body: ConnectBody,
        response: { 200: ConnectedChannel },
        errors: ['BOT_NOT_FOUND', 'NOT_FOUND', 'MISSING_FIELD', 'CHANNEL_REJECTED'],
      },
    },
    async (request) => {
      const bot = await s.bots.owned(accountOf(request), request.params.APIKey);
      return s.channels.connections.connect(bot, request.params.Channel, request.body);
    },
  );

  app.delete(
    '/bots/:APIKey/channels/:Channel',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'Disconnect: the credentials are erased',
        params: ChannelParams,
        response: { 204: { description: 'Disconnected (or was not connected)', type: 'null' } },
        errors: ['BOT_NOT_FOUND', 'NOT_FOUND'],
      },
    },
    async (request, reply) => {
      const bot = await s.bots.owned(accountOf(request), request.params.APIKey);
      s.channels.connections.platform(request.params.Channel);
      await s.channels.connections.disconnect(bot, request.params.Channel);
      return reply.code(204).send(null);
    },
  );

  // Meta's subscription handshake: the challenge back as plain text.
  app.get(
    '/channels/:Channel/:ChannelId',
    {
      config: { limit: 'principal' },
      schema: {
        tags: ['channels'],
        summary: 'Meta webhook verification (hub.mode, hub.verify_token, hub.challenge)',
        params: WebhookParams,
        querystring: Type.Record(Type.String(), Type.String({ maxLength: 1024 })),
        response: { 200: textResponse('text/plain', 'The hub.challenge, echoed') },
        errors: ['NOT_FOUND', 'VERIFY_TOKEN_MISMATCH'],
      },
    },
    async (request, reply) => {
      const challenge = await s.channels.inbound.handshake(request.params.Channel, request.params.ChannelId, request.query);
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  );

  // The platform's update, with its body kept as bytes: signatures are over exactly those bytes.
  void app.register(async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DEFAULT_BODY_LIMIT }, (_request, body, done) => done(null, body));
    const receive = async (request: FastifyRequest<{ Params: { Channel: string; ChannelId: string; Subpath?: string } }>, reply: FastifyReply) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const { Channel, ChannelId, Subpath } = request.params;
      const answer = await s.channels.inbound.receive(Channel, ChannelId, { headers: request.headers, rawBody, query: request.query as Record<string, string>, subpath: Subpath ?? '' });
      if (answer) return reply.type(answer.contentType).send(answer.body);
      return { ok: true as const };
    };
    const webhook = (summary: string, params: typeof WebhookParams | typeof SubpathParams) => ({
      config: { limit: 'principal' as const },
      schema: { tags: ['channels'], summary, params, response: { 200: PlatformAnswer }, errors: ['NOT_FOUND', 'SIGNATURE_INVALID', 'INVALID_JSON'] as const },
    });
    (scope as unknown as App).post(
      '/channels/:Channel/:ChannelId',
      webhook("A messaging platform's webhook (Telegram update, WhatsApp or Messenger notification, Slack event, Twilio SMS, Bot Framework activity)", WebhookParams),
      receive,
    );
    (scope as unknown as App).post(
      '/channels/:Channel/:ChannelId/:Subpath',
      webhook("A platform's second webhook path: Slack's interactivity URL (`/interactive`, a button click)", SubpathParams),
      receive,
    );
  });
}

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;
