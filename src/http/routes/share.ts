// Shared conversation URLs (api.md section 9), opened by whoever holds the link: the console page in
// one-conversation mode, and the small API that page uses. The link itself is the credential.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventView } from '../../operators/views.js';
import { AppError } from '../../shared/errors.js';
import { openEventStream, type EventStream } from '../event-stream.js';
import { assertGuarded } from '../edge.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { consolePage, errorPage } from './console-assets.js';
import { SentParts, SharedConversation, textResponse } from '../wire-schemas.js';

const EVENT_STREAM = textResponse('text/event-stream', 'One JSON object per event: Kind message, state, forgotten or ended');
const LINK_ERRORS = ['SHARE_NOT_FOUND', 'SHARE_EXPIRED'] as const;

const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 128 }) });
const MessageBody = Type.Object({ Text: Type.String({ minLength: 1, maxLength: 16_384 }) }, { additionalProperties: false });

/** The link's code, read only on routes the cross-site guard covers. */
function codeOf(request: FastifyRequest): string {
  assertGuarded(request, 'share-link');
  return (request.params as { code: string }).code;
}

/** A browser asks for HTML and gets the page; any other client gets JSON (errors included). */
const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

export function shareRoutes(app: App, s: Services): void {
  const tags = ['shared conversation URLs'];
  // The link is the credential: counted per client address when limits are on.
  const limited = { config: { limit: 'principal' as const, ambientCredential: 'share-link' as const } };

  app.get(
    '/share/:code',
    {
      ...limited,
      schema: { tags, summary: 'Open a shared conversation (the page for browsers, JSON for other clients)', params: CodeParams, response: { 200: SharedConversation }, errors: LINK_ERRORS },
    },
    async (request, reply) => {
      if (!wantsHtml(request)) return s.shareAccess.conversation(codeOf(request));
      try {
        await s.shareAccess.open(codeOf(request));
      } catch (error) {
        if (error instanceof AppError) return errorPage(reply, error);
        throw error;
      }
      return consolePage(reply, { mode: 'share', code: codeOf(request) });
    },
  );

  app.get(
    '/share/:code/api/conversation',
    { ...limited, schema: { tags, summary: 'The shared conversation: state, transcript, mode', params: CodeParams, response: { 200: SharedConversation }, errors: LINK_ERRORS } },
    async (request) => s.shareAccess.conversation(codeOf(request)),
  );

  app.post(
    '/share/:code/api/messages',
    {
      ...limited,
      schema: {
        tags,
        summary: 'Write to the user as operator (takeover and auto links)',
        params: CodeParams,
        body: MessageBody,
        response: { 200: SentParts },
        errors: [...LINK_ERRORS, 'SHARE_READ_ONLY', 'USER_BANNED', 'CONVERSATION_FORGETTING'],
      },
    },
    async (request) => s.shareAccess.send(codeOf(request), request.body.Text),
  );

  app.get(
    '/share/:code/api/events',
    { ...limited, schema: { tags, summary: 'Live events of the shared conversation (text/event-stream)', params: CodeParams, response: { 200: EVENT_STREAM }, errors: LINK_ERRORS } },
    async (request, reply) => streamShareEvents(app, s, codeOf(request), request, reply),
  );
}

async function streamShareEvents(app: App, s: Services, code: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  let stream: EventStream | null = null;
  // An expired or dropped link says so and ends the stream; the page then shows why.
  const end = () => {
    stream?.send({ Kind: 'ended' });
    stream?.close();
  };
  // Opening the link first: an unknown or expired one answers its 404/410 as JSON, not a stream.
  const subscription = await s.shareAccess.subscribe(code, (event) => {
    stream?.send(eventView(event, s.clock));
    if (event.kind === 'forgotten') end();
    else if (event.kind === 'state') void subscription.stillValid().then((valid) => valid || end());
  });
  stream = openEventStream(app, request, reply, {
    onClose: () => subscription.unsubscribe(),
    onHeartbeat: () => void subscription.stillValid().then((valid) => valid || end()),
  });
  // The same `ready` step as the widget's and the console's streams.
  void (s.events.reachable?.() ?? Promise.resolve()).then(
    () => stream?.send({}, 'ready'),
    () => undefined,
  );
}
