// Teammates in the console (issue 37 item 5, operators/team.ts): any signed-in operator sees the
// team; admins invite (the answer holds the one-time link, and whether it was e-mailed), change
// roles and remove. The link opens /console/team#invite=<token>: a fragment, so the token is in no server's request log.
// Joining through it is public, throttled like a sign-in.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { OPERATOR_ROLES } from '../../operators/model.js';
import { INVITE_DAYS, type InvitationView, type Team } from '../../operators/team.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { operatorSignIn } from './console-session.js';
import { bundledPageRoutes } from './bundled-page.js';
import { teamBundle } from '../../operators/team-page.js';

const Role = Type.Union([Type.Literal('agent'), Type.Literal('designer'), Type.Literal('admin')], { description: OPERATOR_ROLES.join(', ') });
const OperatorParams = Type.Object({ operatorId: Type.String({ minLength: 1, maxLength: 64 }) });
const InviteBody = Type.Object(
  // No line breaks in a name: it goes into the invitation e-mail's text and subject.
  { Email: Type.String({ format: 'email', maxLength: 254 }), Name: Type.Optional(Type.String({ maxLength: 100, pattern: '^[^\\r\\n]*$' })), Role: Role },
  { additionalProperties: false },
);
const RoleBody = Type.Object({ Role: Role }, { additionalProperties: false });
const JoinBody = Type.Object({ Token: Type.String({ minLength: 20, maxLength: 100 }), Password: Type.String({ minLength: 8, maxLength: 200 }) }, { additionalProperties: false });
const Teammate = Type.Object({ OperatorId: Type.String(), Email: Type.String(), Name: Type.String(), Role: Role, Invited: Type.Boolean() });
const Invited = Type.Object({
  Teammate,
  InviteUrl: Type.String({ description: 'the one-time link, for the admin to send when it was not e-mailed' }),
  ExpiresInDays: Type.Integer(),
  Emailed: Type.Boolean({ description: 'true: the SMTP server accepted the e-mail with the link; false: no SMTP is configured, or the send failed or timed out (logged)' }),
});

export function consoleTeamRoutes(app: App, s: Services & { team: Team }): void {
  const anyone = operatorSignIn(app, s, 'any');
  const admin = operatorSignIn(app, s, 'account');
  const tags = ['operator console'];
  const ctxOf = (request: FastifyRequest) => request.operatorContext!;
  const idOf = (request: FastifyRequest) => (request.params as { operatorId: string }).operatorId;
  const invited = ({ teammate, link, emailed }: InvitationView) => ({ Teammate: teammate, InviteUrl: link, ExpiresInDays: INVITE_DAYS, Emailed: emailed });

  bundledPageRoutes(app, { url: '/console/team', folder: 'team', title: 'Team', css: 'team.css', bundle: teamBundle });
  app.get(
    '/console/api/team',
    { ...anyone, schema: { hide: true, tags, summary: "The account's operators", response: { 200: Type.Object({ Teammates: Type.Array(Teammate) }) } } },
    async (request) => ({
      Teammates: await s.team.list(ctxOf(request)),
    }),
  );
  app.post(
    '/console/api/team',
    { ...admin, schema: { hide: true, tags, summary: 'Invite a teammate: the answer holds the one-time link to send them', body: InviteBody, response: { 201: Invited }, errors: ['CONFLICT'] } },
    async (request, reply) => reply.status(201).send(invited(await s.team.invite(ctxOf(request), { email: request.body.Email, name: request.body.Name, role: request.body.Role }))),
  );
  app.post(
    '/console/api/team/:operatorId/invite',
    {
      ...admin,
      schema: {
        hide: true,
        tags,
        summary: 'A new link for a teammate who has not joined yet (the old one stops working)',
        params: OperatorParams,
        response: { 200: Invited },
        errors: ['OPERATOR_NOT_FOUND', 'CONFLICT'],
      },
    },
    async (request) => invited(await s.team.reinvite(ctxOf(request), idOf(request))),
  );
  app.patch(
    '/console/api/team/:operatorId',
    {
      ...admin,
      schema: {
        hide: true,
        tags,
        summary: "Change a teammate's role (the account keeps an admin)",
        params: OperatorParams,
        body: RoleBody,
        response: { 200: Teammate },
        errors: ['OPERATOR_NOT_FOUND', 'CONFLICT'],
      },
    },
    async (request) => s.team.setRole(ctxOf(request), idOf(request), request.body.Role),
  );
  app.delete(
    '/console/api/team/:operatorId',
    {
      ...admin,
      schema: {
        hide: true,
        tags,
        summary: 'Remove a teammate (not yourself; the account keeps an admin)',
        params: OperatorParams,
        response: { 200: Type.Object({ OperatorId: Type.String(), Removed: Type.Literal(true) }) },
        errors: ['OPERATOR_NOT_FOUND', 'CONFLICT'],
      },
    },
    async (request) => {
      await s.team.remove(ctxOf(request), idOf(request));
      return { OperatorId: idOf(request), Removed: true as const };
    },
  );
  app.post(
    '/console/api/team/join',
    {
      config: { limit: 'sign-in', ambientCredential: 'session' },
      schema: {
        hide: true,
        tags,
        summary: 'Choose a password through an invitation link (used once)',
        body: JoinBody,
        response: { 200: Type.Object({ Email: Type.String() }) },
        errors: ['INVITE_INVALID'],
      },
    },
    async (request) => s.team.accept(request.body.Token, request.body.Password),
  );
}
