// The console's inbox routes (/console/api/...): message search, resolve / reopen / snooze,
// transfer to a colleague or a team, and the account's teams (read by every agent, changed by
// admins only). Cookie-session routes like the rest of the console; the work is done by operators/console-inbox.ts.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { SignedIn } from './console-session.js';
import type { OperatorContext } from '../../operators/sessions.js';
import { MAX_SNOOZE_MINUTES } from '../../operators/console-inbox.js';
import { BoundedInteger } from '../bounded-integers.js';
import { AppError } from '../../shared/errors.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';

const UserParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: 256 }) });
const TeamParams = Type.Object({ teamId: Type.String({ pattern: '^[1-9][0-9]{0,14}$' }) });
const SearchQuery = Type.Object({ q: Type.String({ maxLength: 200 }) });
const Empty = Type.Object({}, { additionalProperties: false });
const SnoozeBody = Type.Object({ Minutes: BoundedInteger(1, MAX_SNOOZE_MINUTES) }, { additionalProperties: false });
const TransferBody = Type.Object(
  { OperatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), TeamId: Type.Optional(BoundedInteger(1, Number.MAX_SAFE_INTEGER)) },
  { additionalProperties: false },
);
const Members = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 200 });
const TeamBody = Type.Object({ Name: Type.String({ minLength: 1, maxLength: 80 }), OperatorIds: Type.Optional(Members) }, { additionalProperties: false });
const MembersBody = Type.Object({ OperatorIds: Members }, { additionalProperties: false });

export function consoleInboxRoutes(app: App, s: Services, signedIn: SignedIn, accountAdmin: SignedIn): void {
  const tags = ['operator console'];
  const ctxOf = (request: FastifyRequest): OperatorContext => request.operatorContext!;
  const one = '/console/api/conversations/:botId/:userId';
  const errors = ['CONVERSATION_NOT_FOUND'] as const;

  app.get(
    '/console/api/search',
    { ...signedIn, schema: { hide: true, tags, summary: "Conversations whose messages hold these words (the database's full-text index)", querystring: SearchQuery } },
    async (request) => s.inbox.search(ctxOf(request), request.query.q),
  );
  app.post(`${one}/resolve`, { ...signedIn, schema: { hide: true, tags, summary: 'Resolve (hands back to the bot first)', params: UserParams, body: Empty, errors } }, async (request) =>
    s.inbox.resolve(ctxOf(request), request.params.botId, request.params.userId),
  );
  app.post(`${one}/reopen`, { ...signedIn, schema: { hide: true, tags, summary: 'Open again', params: UserParams, body: Empty, errors } }, async (request) =>
    s.inbox.reopen(ctxOf(request), request.params.botId, request.params.userId),
  );
  app.post(
    `${one}/snooze`,
    { ...signedIn, schema: { hide: true, tags, summary: 'Out of the open list until the time passes or the user writes', params: UserParams, body: SnoozeBody, errors } },
    async (request) => s.inbox.snooze(ctxOf(request), request.params.botId, request.params.userId, request.body.Minutes),
  );
  app.post(
    `${one}/transfer`,
    {
      ...signedIn,
      schema: {
        hide: true,
        tags,
        summary: 'Transfer to a colleague (OperatorId) or a team (TeamId)',
        params: UserParams,
        body: TransferBody,
        errors: [...errors, 'OPERATOR_NOT_FOUND', 'TEAM_NOT_FOUND'],
      },
    },
    async (request) => {
      const { OperatorId, TeamId } = request.body;
      if ((OperatorId === undefined) === (TeamId === undefined)) throw new AppError('INVALID_REQUEST', 'Give either OperatorId or TeamId.', { Field: 'OperatorId' });
      return s.inbox.transfer(ctxOf(request), request.params.botId, request.params.userId, { OperatorId, TeamId });
    },
  );

  app.get('/console/api/teams', { ...signedIn, schema: { hide: true, tags, summary: "The account's teams and operators (who is online)" } }, async (request) => s.inbox.teams(ctxOf(request)));
  app.post(
    '/console/api/teams',
    { ...accountAdmin, schema: { hide: true, tags, summary: 'Add a team', body: TeamBody, errors: ['CONFLICT', 'LIMIT_EXCEEDED', 'OPERATOR_NOT_FOUND'] } },
    async (request, reply) => reply.status(201).send(await s.inbox.createTeam(ctxOf(request), request.body.Name, request.body.OperatorIds ?? [])),
  );
  app.put(
    '/console/api/teams/:teamId/members',
    { ...accountAdmin, schema: { hide: true, tags, summary: "Set a team's members", params: TeamParams, body: MembersBody, errors: ['TEAM_NOT_FOUND', 'OPERATOR_NOT_FOUND'] } },
    async (request) => s.inbox.setMembers(ctxOf(request), Number(request.params.teamId), request.body.OperatorIds),
  );
  app.delete(
    '/console/api/teams/:teamId',
    { ...accountAdmin, schema: { hide: true, tags, summary: 'Delete a team (its conversations keep their assignee)', params: TeamParams, errors: ['TEAM_NOT_FOUND'] } },
    async (request) => s.inbox.deleteTeam(ctxOf(request), Number(request.params.teamId)),
  );
}
