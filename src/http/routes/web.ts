// The web channel over HTTP: the widget script, the demo page, and the endpoints the widget calls
// with nothing but the bot's public web key in the path (a key in the path, not a header, because
// EventSource cannot send headers and a CORS preflight must be answerable per bot).
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEMO_PAGE_POLICY, DEMO_SCRIPT, demoPage } from '../../channels/web/demo-page.js';
import type { WebPrincipal } from '../../channels/web/web-channel.js';
import { widgetBundle } from '../../channels/web/widget-bundle.js';
import { variableUpdates } from '../../conversations/values.js';
import { closeStreamsOnShutdown, openEventStream } from '../event-stream.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { ChatBody } from './custom.js';
import { ChatReply, textResponse, WebConfig } from '../wire-schemas.js';

/** What the widget's calls can meet: an unknown web key, a refused origin, the conversation's own state. */
const WEB_ERRORS = ['BOT_NOT_FOUND', 'ORIGIN_FORBIDDEN'] as const;
const TURN_ERRORS = [...WEB_ERRORS, 'CONVERSATION_NOT_FOUND', 'USER_BANNED', 'CONVERSATION_FORGETTING', 'LIMIT_EXCEEDED', 'UNAVAILABLE'] as const;

const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 128 }) });
const UserId = Type.String({ minLength: 1, maxLength: 256 });
/** A random id per page load: the widget's own turns are not echoed back on its live stream. */
const ClientId = Type.String({ minLength: 1, maxLength: 64 });

/** What the page says about the visitor, for the operators (docs/channels.md "Visitor context"); every field bounded. */
const VisitorContext = Type.Object(
  {
    Url: Type.Optional(Type.String({ maxLength: 2048, pattern: '^https?://', description: 'the page the widget runs on' })),
    Browser: Type.Optional(Type.String({ maxLength: 256, description: "the browser's user agent" })),
    Language: Type.Optional(Type.String({ maxLength: 35, pattern: '^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$', description: "the browser's language tag" })),
    Visitor: Type.Optional(Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: "the widget's id for this browser: links the visitor's conversations" })),
  },
  { additionalProperties: false },
);
const StartBody = Type.Object(
  {
    UserId: Type.Optional(UserId),
    Variables: ChatBody.properties.Variables,
    Behaviour: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    ClientId: Type.Optional(ClientId),
    Context: Type.Optional(VisitorContext),
  },
  { additionalProperties: false },
);
const UserBody = Type.Object({ UserId, ClientId: Type.Optional(ClientId) }, { additionalProperties: false });
const SendBody = Type.Object(
  {
    UserId,
    Text: Type.Optional(Type.String({ maxLength: 16384 })),
    Command: Type.Optional(Type.String({ maxLength: 256 })),
    ClientId: Type.Optional(ClientId),
    MessageId: Type.Optional(
      Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: "The widget's id for this message: sent again, it runs once and answers the history with Duplicate: true" }),
    ),
  },
  { additionalProperties: false },
);
const EventsQuery = Type.Object({ userid: UserId, client: Type.Optional(ClientId) }, { additionalProperties: false });

const ALLOWED_METHODS = 'GET, POST, OPTIONS';

const principalOf = (request: FastifyRequest) => request.principal as unknown as WebPrincipal;

export function webRoutes(app: App, s: Services): void {
  closeStreamsOnShutdown(app);
  const tags = ['web channel'];
  // With limits on, web calls are counted per bot and client address (they carry no token).
  const config = { limit: 'principal' as const };

  /** Resolves the web key and checks the origin before anything else (preflights included). */
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    const { account, bot } = await s.web.open((request.params as { key: string }).key, origin);
    if (origin !== undefined) {
      // The bot's own origin list decides, so the answer differs by Origin: caches must know.
      reply.header('Access-Control-Allow-Origin', origin).header('Vary', 'Origin');
    }
    request.principal = { kind: 'bot', account, bot };
    request.limitKey = `web:${bot.id}:${request.ip}`;
  };
  const web = { onRequest, config };

  app.options('/web/:key/*', { ...web, schema: { hide: true } }, async (request, reply) => {
    const asked = request.headers['access-control-request-headers'];
    reply
      .header('Access-Control-Allow-Methods', ALLOWED_METHODS)
      .header('Access-Control-Allow-Headers', typeof asked === 'string' && asked !== '' ? asked : 'Content-Type')
      .header('Access-Control-Max-Age', '600');
    return reply.status(204).send();
  });

  app.get('/web/:key/config', { ...web, schema: { tags, summary: "The bot's name and avatar for the widget", params: KeyParams, response: { 200: WebConfig }, errors: WEB_ERRORS } }, async (request) =>
    s.web.config(principalOf(request).bot),
  );

  app.post(
    '/web/:key/conversation',
    { ...web, schema: { tags, summary: 'Start a web conversation, or resume it (READY history)', params: KeyParams, body: StartBody, response: { 200: ChatReply }, errors: TURN_ERRORS } },
    async (request) => {
      const body = request.body;
      return s.web.start(principalOf(request), {
        userId: body.UserId,
        variables: variableUpdates(body.Variables),
        behaviour: body.Behaviour,
        clientId: body.ClientId,
        context: body.Context && {
          visitorId: body.Context.Visitor ?? null,
          pageUrl: body.Context.Url ?? null,
          userAgent: body.Context.Browser ?? null,
          language: body.Context.Language ?? null,
        },
      });
    },
  );

  app.post(
    '/web/:key/messages',
    { ...web, schema: { tags, summary: 'Send a text or a button payload', params: KeyParams, body: SendBody, response: { 200: ChatReply }, errors: TURN_ERRORS } },
    async (request) => {
      const { UserId: userId, Text: text, Command: command, ClientId: clientId, MessageId: messageId } = request.body;
      return s.web.send(principalOf(request), { userId, text, command, clientId, messageId });
    },
  );

  app.post(
    '/web/:key/typing',
    {
      ...web,
      schema: {
        tags,
        summary: 'The visitor is typing: tells the operators (at most one event every 2 s)',
        params: KeyParams,
        body: UserBody,
        response: { 200: Type.Object({ Sent: Type.Boolean() }) },
        errors: [...WEB_ERRORS, 'CONVERSATION_NOT_FOUND'],
      },
    },
    async (request) => s.web.typing(principalOf(request), request.body.UserId),
  );

  app.get(
    '/web/:key/queue',
    {
      ...web,
      schema: {
        tags,
        summary: "A conversation waiting for a person: its place in the account's queue and the bot's usual reply time",
        params: KeyParams,
        querystring: Type.Object({ userid: UserId }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            State: Type.Integer(),
            Position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
            ExpectedReplySeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
              description: "median first reply of the bot's newest answered waits of the last 7 days; null when not waiting or too few",
            }),
          }),
        },
        errors: [...WEB_ERRORS, 'CONVERSATION_NOT_FOUND'],
      },
    },
    async (request) => s.web.queue(principalOf(request), request.query.userid),
  );

  app.get(
    '/web/:key/events',
    {
      ...web,
      schema: {
        tags,
        summary: 'Live messages of a web conversation (Server-Sent Events)',
        params: KeyParams,
        querystring: EventsQuery,
        response: { 200: textResponse('text/event-stream', 'Events ready, message and state, one JSON object each') },
        errors: [...WEB_ERRORS, 'CONVERSATION_NOT_FOUND'],
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const userId = request.query.userid;
      let stream: ReturnType<typeof openEventStream> | null = null;
      const early: Array<() => void> = [];
      const stop = await s.web.watch(principal, userId, request.query.client, (d) => (stream ? stream.send(d.data, d.event) : early.push(() => stream!.send(d.data, d.event))));
      // The stream takes the response over; headers set on the reply (CORS, Vary) go with it.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      stream = openEventStream(app, request, reply, { onClose: stop, heartbeatMs: s.web.heartbeatMs });
      // Tells the widget (and tests) that everything written from now on reaches it.
      stream.send({ UserId: userId }, 'ready');
      for (const send of early.splice(0)) send();
    },
  );

  app.get('/widget.js', { schema: { hide: true } }, async (request, reply) => {
    const bundle = await widgetBundle();
    reply.header('ETag', bundle.etag).header('Cache-Control', 'public, max-age=300').header('Access-Control-Allow-Origin', '*');
    if (request.headers['if-none-match'] === bundle.etag) return reply.status(304).send();
    return reply.type('application/javascript; charset=utf-8').send(bundle.code);
  });

  app.get('/demo', { schema: { hide: true, querystring: Type.Object({ bot: Type.Optional(Type.String({ maxLength: 128 })) }) } }, async (request, reply) => {
    const webKey = request.query.bot ?? (await s.web.demoWebKey());
    return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', DEMO_PAGE_POLICY).send(demoPage(webKey));
  });

  app.get('/demo.js', { schema: { hide: true } }, async (_request, reply) => reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(DEMO_SCRIPT));
}
