// The operator console: its page and assets (/console), and its JSON API (/console/api/*) signed in
// with an HttpOnly session cookie. The work is done by operators/console-service.ts; this file
// only maps HTTP to it. Shared conversation URLs (/share/*) are registered from here too.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HANDOVER_MODES, isBeingForgotten, MAX_BAN_DAYS, type HandoverMode } from '../../conversations/control-service.js';
import { assertRoleAllows } from '../../operators/roles.js';
import { operatorView, SESSION_HOURS } from '../../operators/sessions.js';
import { eventView } from '../../operators/views.js';
import { AppError } from '../../shared/errors.js';
import { closeStreamsOnShutdown, openEventStream } from '../event-stream.js';
import { BoundedInteger } from '../bounded-integers.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { consolePage, sendAsset } from './console-assets.js';
import { shareRoutes } from './share.js';
import { consoleVisitorRoutes } from './console-visitors.js';
import { consoleWorkspaceRoutes } from './console-workspace.js';
import { consoleInboxRoutes } from './console-inbox.js';
import { operatorSignIn, SESSION_COOKIE, sessionCookieOf } from './console-session.js';

/** Path=/console keeps the cookie off every other route; Secure when the server is served over https. */
export function sessionCookie(s: Services, value: string, maxAgeSeconds: number): string {
  const secure = s.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

const UserParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: 256 }) });
const LoginBody = Type.Object(
  {
    Email: Type.String({ minLength: 1, maxLength: 254 }),
    Password: Type.String({ minLength: 1, maxLength: 1024 }),
    AccountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
const HandoverBody = Type.Object({ Mode: Type.Optional(Type.String({ maxLength: 16 })) }, { additionalProperties: false });
const BanBody = Type.Object({ Days: Type.Optional(BoundedInteger(1, MAX_BAN_DAYS)), Message: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false });
const MessageBody = Type.Object({ Text: Type.String({ minLength: 1, maxLength: 16_384 }) }, { additionalProperties: false });
const Empty = Type.Object({}, { additionalProperties: false });

export function consoleRoutes(app: App, s: Services): void {
  closeStreamsOnShutdown(app);
  app.decorateRequest('operatorContext', null);
  // The console API is the console page's own, signed in with a cookie rather than a bearer
  // token: it stays out of the integration API's OpenAPI document (hide).
  const tags = ['operator console'];
  // Conversations are the agents' (and admins'); `me` is every signed-in operator's.
  const signedIn = operatorSignIn(app, s, 'conversations');
  const anyRole = operatorSignIn(app, s, 'any');
  // Teams decide who gets which conversations: changed by admins only, read by every agent.
  const accountAdmin = operatorSignIn(app, s, 'account');
  const ctxOf = (request: FastifyRequest) => request.operatorContext!;

  app.get('/console', { schema: { hide: true } }, async (_request, reply) => consolePage(reply, { mode: 'console' }));
  app.get('/console/', { schema: { hide: true } }, async (_request, reply) => consolePage(reply, { mode: 'console' }));
  app.get('/console/assets/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } }, async (request, reply) => sendAsset(reply, request.params.file));

  // Password guessing is slowed by scrypt and capped per client address in a bucket of its own
  // (other requests from the same address do not use it up), and failed attempts are throttled
  // per address and per e-mail (when limits are on).
  app.post(
    '/console/api/login',
    { config: { limit: 'sign-in', ambientCredential: 'session' }, schema: { hide: true, tags, summary: 'Sign an operator in (sets the session cookie)', body: LoginBody } },
    async (request, reply) => {
      const { Email, Password, AccountId } = request.body;
      const session = await app.failedAuth.guard(request, reply, `login:${Email.trim().toLowerCase()}`, () => s.operatorSessions.login(Email, Password, AccountId));
      // who signed in, for the audit log's sign-in entry (http/audit.ts)
      request.operatorContext = session;
      reply.header('set-cookie', sessionCookie(s, session.token, SESSION_HOURS * 3600));
      return { ...operatorView(session), SessionExpires: s.clock.iso(session.expiresAt) };
    },
  );

  app.post('/console/api/logout', { config: { ambientCredential: 'session' }, schema: { hide: true, tags, summary: 'Sign out (deletes the session)' } }, async (request, reply) => {
    await s.operatorSessions.logout(sessionCookieOf(request));
    reply.header('set-cookie', sessionCookie(s, '', 0));
    return { LoggedOut: true };
  });

  app.get('/console/api/me', { ...anyRole, schema: { hide: true, tags, summary: 'The signed-in operator' } }, async (request) => operatorView(ctxOf(request)));

  app.get('/console/api/conversations', { ...signedIn, schema: { hide: true, tags, summary: "Conversations of the account's bots" } }, async (request) => ({
    Conversations: await s.console.list(ctxOf(request)),
  }));

  const one = '/console/api/conversations/:botId/:userId';
  app.get(one, { ...signedIn, schema: { hide: true, tags, summary: 'One conversation: state and transcript', params: UserParams } }, async (request) =>
    s.console.open(ctxOf(request), request.params.botId, request.params.userId),
  );
  app.post(`${one}/takeover`, { ...signedIn, schema: { hide: true, tags, summary: 'Take over (as the signed-in operator)', params: UserParams, body: Empty } }, async (request) =>
    s.console.takeover(ctxOf(request), request.params.botId, request.params.userId),
  );
  app.post(`${one}/handover`, { ...signedIn, schema: { hide: true, tags, summary: 'Hand back to the bot', params: UserParams, body: HandoverBody } }, async (request) => {
    const mode = (request.body.Mode ?? '*').toLowerCase() as HandoverMode;
    if (!HANDOVER_MODES.includes(mode)) throw new AppError('INVALID_REQUEST', 'Mode must be viewshares, dropshares or *.', { Field: 'Mode' });
    return s.console.handover(ctxOf(request), request.params.botId, request.params.userId, mode);
  });
  app.post(`${one}/ban`, { ...signedIn, schema: { hide: true, tags, summary: 'Ban the user', params: UserParams, body: BanBody } }, async (request) =>
    s.console.ban(ctxOf(request), request.params.botId, request.params.userId, request.body.Days, request.body.Message || undefined),
  );
  app.post(`${one}/unban`, { ...signedIn, schema: { hide: true, tags, summary: 'Lift a ban', params: UserParams, body: Empty } }, async (request) =>
    s.console.unban(ctxOf(request), request.params.botId, request.params.userId),
  );
  app.post(`${one}/forget`, { ...signedIn, schema: { hide: true, tags, summary: 'Forget the user', params: UserParams, body: Empty } }, async (request, reply) => {
    const result = await s.console.forget(ctxOf(request), request.params.botId, request.params.userId);
    return reply.status(isBeingForgotten(result) ? 202 : 200).send(result);
  });
  app.post(`${one}/messages`, { ...signedIn, schema: { hide: true, tags, summary: 'Write to the user as operator', params: UserParams, body: MessageBody } }, async (request) =>
    s.console.send(ctxOf(request), request.params.botId, request.params.userId, request.body.Text),
  );

  app.get('/console/api/events', { ...signedIn, schema: { hide: true, tags, summary: "Live events of the account's bots (text/event-stream)" } }, async (request, reply) =>
    streamConsoleEvents(app, s, request, reply),
  );

  consoleWorkspaceRoutes(app, s, signedIn);
  consoleInboxRoutes(app, s, signedIn, accountAdmin);
  consoleVisitorRoutes(app, s, signedIn, anyRole);
  shareRoutes(app, s);
}

function streamConsoleEvents(app: App, s: Services, request: FastifyRequest, reply: FastifyReply): void {
  const ctx = request.operatorContext!;
  let unsubscribe = () => undefined as void;
  // Presence is written to the database (every node's round robin reads it): a failed write is
  // logged, and the next heartbeat writes it again.
  const presence = s.inbox.online.join(ctx.operator.id);
  const logged = (error: unknown) => request.log.warn({ err: error }, 'operator presence not written');
  const stream = openEventStream(app, request, reply, {
    heartbeatMs: s.console.heartbeatMs,
    onClose: () => unsubscribe(),
    // A session that expired, was logged out or whose operator was removed ends the stream at the
    // next heartbeat, and so does a role that no longer opens conversations.
    onHeartbeat: () => {
      void s.operatorSessions
        .authenticate(sessionCookieOf(request))
        .then((now) => assertRoleAllows(now.operator.role, 'conversations'))
        .catch(() => stream.close());
      void presence.refresh().catch(logged);
    },
  });
  const stop = s.console.subscribe(ctx, (event) => stream.send(eventView(event, s.clock)));
  unsubscribe = () => {
    stop();
    void presence.leave().catch(logged);
  };
  // As the widget's stream: `ready` once other nodes relay to this one and see the operator
  // online, so that what happens after it reaches the page live; the page reads the list again on
  // it (what came before).
  void Promise.all([s.events.reachable?.(), presence.written.catch(logged)]).then(
    () => stream.send({}, 'ready'),
    () => undefined,
  );
}
