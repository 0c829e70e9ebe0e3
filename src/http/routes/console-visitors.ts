// The console's web-visitor routes (issue 27): what a web visitor's page said about them and their
// earlier conversations, and the signed-in operator's picture shown to visitors. Cookie-session
// routes like the rest of the console; the work is done by operators/web-visitors.ts.
import { Type } from 'typebox';
import { Nullable } from '../wire-schemas.js';
import type { FastifyRequest } from 'fastify';
import type { SignedIn } from './console-session.js';
import type { OperatorContext } from '../../operators/sessions.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';

const UserParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: 256 }) });
const Visitor = Type.Object({
  Name: Nullable(Type.String()),
  Email: Nullable(Type.String()),
  PageUrl: Nullable(Type.String()),
  Browser: Nullable(Type.String()),
  UserAgent: Nullable(Type.String()),
  Language: Nullable(Type.String()),
  SeenAt: Nullable(Type.String({ description: 'ISO 8601, UTC: when the page last said so' })),
  Earlier: Type.Array(Type.Object({ UserId: Type.String(), StartedAt: Type.String(), LastActivity: Type.String(), State: Type.Integer() })),
});
/** An http(s) picture address, or null to go back to initials. */
const AvatarBody = Type.Object({ AvatarUrl: Type.Union([Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://[^\\s]+$' }), Type.Null()]) }, { additionalProperties: false });
const Avatar = Type.Object({ AvatarUrl: Nullable(Type.String()) });

export function consoleVisitorRoutes(app: App, s: Services, signedIn: SignedIn, anyRole: SignedIn): void {
  const tags = ['operator console'];
  const ctxOf = (request: FastifyRequest): OperatorContext => request.operatorContext!;

  app.get(
    '/console/api/conversations/:botId/:userId/visitor',
    {
      ...signedIn,
      schema: {
        hide: true,
        tags,
        summary: 'What the web visitor gave and their page said; their earlier conversations',
        params: UserParams,
        response: { 200: Visitor },
        errors: ['CONVERSATION_NOT_FOUND'],
      },
    },
    async (request) => s.webVisitors.visitor(ctxOf(request), request.params.botId, request.params.userId),
  );
  app.get('/console/api/me/avatar', { ...anyRole, schema: { hide: true, tags, summary: "The signed-in operator's picture", response: { 200: Avatar } } }, async (request) =>
    s.webVisitors.avatar(ctxOf(request)),
  );
  app.put(
    '/console/api/me/avatar',
    { ...anyRole, schema: { hide: true, tags, summary: "Sets the signed-in operator's picture (shown to web visitors)", body: AvatarBody, response: { 200: Avatar } } },
    async (request) => s.webVisitors.setAvatar(ctxOf(request), request.body.AvatarUrl),
  );
}
