// The console's workspace routes (/console/api/...): assignment, private notes, canned responses
// and operator typing. Cookie-session routes like the rest of the console (the caller passes its
// sign-in hook); the cross-site guard of edge.ts covers them by the mark the sign-in hook carries. The work
// is done by operators/console-workspace.ts.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { SignedIn } from './console-session.js';
import type { OperatorContext } from '../../operators/sessions.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';

const UserParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: 256 }) });
// Path parameters arrive as text (no type coercion): a positive whole number of at most 15 digits.
const CannedParams = Type.Object({ cannedId: Type.String({ pattern: '^[1-9][0-9]{0,14}$' }) });
const AssignBody = Type.Object({ OperatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false });
const NoteBody = Type.Object({ Text: Type.String({ minLength: 1, maxLength: 4000 }) }, { additionalProperties: false });
const CannedBody = Type.Object({ Shortcut: Type.String({ minLength: 1, maxLength: 40 }), Text: Type.String({ minLength: 1, maxLength: 4000 }) }, { additionalProperties: false });
const Empty = Type.Object({}, { additionalProperties: false });

const Assignee = Type.Object({ OperatorId: Type.String(), Name: Type.String(), Email: Type.String() });
const Assigned = Type.Object({ AssignedTo: Type.Union([Assignee, Type.Null()]) });
const Note = Type.Object({ NoteId: Type.Integer(), Author: Type.String(), Text: Type.String(), At: Type.String({ description: 'ISO 8601, UTC' }) });
const Canned = Type.Object({ CannedId: Type.Integer(), Shortcut: Type.String(), Text: Type.String() });
const CannedList = Type.Object({ CannedResponses: Type.Array(Canned) });

export function consoleWorkspaceRoutes(app: App, s: Services, signedIn: SignedIn): void {
  const tags = ['operator console'];
  const ctxOf = (request: FastifyRequest): OperatorContext => request.operatorContext!;
  const one = '/console/api/conversations/:botId/:userId';
  const conversationErrors = ['CONVERSATION_NOT_FOUND'] as const;

  app.post(
    `${one}/assign`,
    {
      ...signedIn,
      schema: {
        hide: true,
        tags,
        summary: 'Assign to an operator of the account (default: the signed-in one)',
        params: UserParams,
        body: AssignBody,
        response: { 200: Assigned },
        errors: [...conversationErrors, 'OPERATOR_NOT_FOUND'],
      },
    },
    async (request) => s.workspace.assign(ctxOf(request), request.params.botId, request.params.userId, request.body.OperatorId),
  );
  app.post(
    `${one}/unassign`,
    { ...signedIn, schema: { hide: true, tags, summary: 'Leave the conversation unassigned', params: UserParams, body: Empty, response: { 200: Assigned }, errors: conversationErrors } },
    async (request) => s.workspace.unassign(ctxOf(request), request.params.botId, request.params.userId),
  );
  app.post(
    `${one}/notes`,
    {
      ...signedIn,
      schema: { hide: true, tags, summary: 'A private note for the other operators (never sent to the user)', params: UserParams, body: NoteBody, response: { 201: Note }, errors: conversationErrors },
    },
    async (request, reply) => reply.status(201).send(await s.workspace.addNote(ctxOf(request), request.params.botId, request.params.userId, request.body.Text)),
  );
  app.post(
    `${one}/typing`,
    {
      ...signedIn,
      schema: {
        hide: true,
        tags,
        summary: 'Tell the user the operator is typing',
        params: UserParams,
        body: Empty,
        response: { 200: Type.Object({ Sent: Type.Literal(true) }) },
        errors: [...conversationErrors, 'STATE_CONFLICT'],
      },
    },
    async (request) => s.workspace.typing(ctxOf(request), request.params.botId, request.params.userId),
  );

  app.get('/console/api/canned', { ...signedIn, schema: { hide: true, tags, summary: "The account's canned responses", response: { 200: CannedList } } }, async (request) =>
    s.workspace.cannedResponses(ctxOf(request)),
  );
  app.post(
    '/console/api/canned',
    { ...signedIn, schema: { hide: true, tags, summary: 'Add a canned response', body: CannedBody, response: { 201: Canned }, errors: ['CONFLICT', 'LIMIT_EXCEEDED'] } },
    async (request, reply) => reply.status(201).send(await s.workspace.createCanned(ctxOf(request), request.body.Shortcut, request.body.Text)),
  );
  app.put(
    '/console/api/canned/:cannedId',
    {
      ...signedIn,
      schema: { hide: true, tags, summary: 'Change a canned response', params: CannedParams, body: CannedBody, response: { 200: Canned }, errors: ['CANNED_RESPONSE_NOT_FOUND', 'CONFLICT'] },
    },
    async (request) => s.workspace.updateCanned(ctxOf(request), Number(request.params.cannedId), request.body.Shortcut, request.body.Text),
  );
  app.delete(
    '/console/api/canned/:cannedId',
    {
      ...signedIn,
      schema: { hide: true, tags, summary: 'Delete a canned response', params: CannedParams, response: { 200: Type.Object({ Deleted: Type.Literal(true) }) }, errors: ['CANNED_RESPONSE_NOT_FOUND'] },
    },
    async (request) => s.workspace.deleteCanned(ctxOf(request), Number(request.params.cannedId)),
  );
}
