// api.md sections 7 to 9: conversation state and shared conversation URLs.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { HANDOVER_MODES, isBeingForgotten, MAX_BAN_DAYS, STATE_COMMANDS, type HandoverMode, type StateCommand } from '../../conversations/control-service.js';
import { SHARE_MODES } from '../../operators/share-service.js';
import { AppError } from '../../shared/errors.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { BeingForgotten, ConversationState, ShareUrl } from '../wire-schemas.js';
import type { ShareMode } from '../../conversations/model.js';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';

const principalOf = (request: FastifyRequest) => request.principal as { account: AccountRecord; bot: BotRecord };
const UserId = Type.String({ minLength: 1, maxLength: 256 });
const Loose = Type.Union([Type.String({ maxLength: 1024 }), Type.Number()]);
const StateParams = Type.Object(
  {
    userid: Type.Optional(UserId),
    state: Type.Optional(Type.String({ maxLength: 32 })),
    mode: Type.Optional(Type.String({ maxLength: 32 })),
    operator: Type.Optional(Type.String({ maxLength: 254 })),
    days: Type.Optional(Loose),
    message: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function invalid(field: string, message: string): never {
  throw new AppError('INVALID_REQUEST', message, { Field: field });
}

function banDays(value: string | number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_BAN_DAYS) invalid(field, `${field} must be a whole number of days from 1 to ${MAX_BAN_DAYS}.`);
  return n;
}

function positiveHours(value: string | number, field: string): number {
  const n = typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 24 * 366) invalid(field, `${field} must be a positive number of hours (at most a year).`);
  return n;
}

function shareMode(value: string): ShareMode {
  const mode = value.toLowerCase() as ShareMode;
  if (!SHARE_MODES.includes(mode)) invalid('Mode', 'Mode must be view, takeover or auto.');
  return mode;
}

export function controlRoutes(app: App, s: Services): void {
  const bot = { ...authed('chat'), schema: { tags: ['conversation control'], security: [{ bearer: [] }] } };

  app.get(
    '/custom/state',
    {
      ...bot,
      schema: {
        ...bot.schema,
        summary: 'Control state of a conversation',
        querystring: Type.Object({ userid: UserId }, { additionalProperties: false }),
        response: { 200: ConversationState },
        errors: ['CONVERSATION_NOT_FOUND', 'CONVERSATION_FORGETTING'],
      },
    },
    async (request) => s.control.state(principalOf(request).bot, request.query.userid),
  );

  app.post(
    '/custom/state',
    {
      ...bot,
      schema: {
        ...bot.schema,
        summary: 'Ban, unban, forget, take over or hand over',
        querystring: StateParams,
        body: StateParams,
        response: { 200: ConversationState, 202: { ...BeingForgotten, description: 'forget: the deletion has started' } },
        errors: ['CONVERSATION_NOT_FOUND', 'CONVERSATION_FORGETTING', 'STATE_CONFLICT', 'UNAVAILABLE'],
      },
    },
    async (request, reply) => {
      // Parameters may come in the query or the JSON body; the body wins where both have one.
      const p = { ...request.query, ...request.body };
      if (!p.userid) invalid('userid', 'userid is required.');
      const state = (p.state ?? '').toLowerCase() as StateCommand;
      if (!STATE_COMMANDS.includes(state)) invalid('state', `state must be one of ${STATE_COMMANDS.join(', ')}.`);
      const mode = p.mode === undefined ? undefined : (p.mode.toLowerCase() as HandoverMode);
      if (mode !== undefined && !HANDOVER_MODES.includes(mode)) invalid('mode', 'mode must be viewshares, dropshares or *.');
      if (p.operator !== undefined && p.operator !== '*' && !EMAIL.test(p.operator)) invalid('operator', 'operator must be an e-mail address or *.');
      const days = banDays(p.days, 'days');
      const { bot: owner } = principalOf(request);
      const result = await s.control.change(owner, p.userid, { state, mode, operator: p.operator?.toLowerCase(), days, message: p.message });
      return reply.status(isBeingForgotten(result) ? 202 : 200).send(result);
    },
  );

  app.post(
    '/custom/share',
    {
      ...bot,
      schema: {
        ...bot.schema,
        summary: 'Create a shared conversation URL',
        body: Type.Object({ UserId, Mode: Type.String({ maxLength: 16 }), Hours: Loose }, { additionalProperties: false }),
        response: { 200: ShareUrl },
        errors: ['CONVERSATION_NOT_FOUND'],
      },
    },
    async (request) => {
      const { UserId: userId, Mode, Hours } = request.body;
      return s.shares.create(principalOf(request).bot, userId, shareMode(Mode), positiveHours(Hours, 'Hours'));
    },
  );

  app.get(
    '/conversation/share/:mode/:userid/:hours',
    {
      ...bot,
      schema: {
        ...bot.schema,
        summary: 'Create a shared conversation URL (path form)',
        params: Type.Object({ mode: Type.String({ maxLength: 16 }), userid: UserId, hours: Type.String({ maxLength: 16 }) }),
        response: { 200: ShareUrl },
        errors: ['CONVERSATION_NOT_FOUND'],
      },
    },
    async (request) => {
      const { mode, userid, hours } = request.params;
      return s.shares.create(principalOf(request).bot, userid, shareMode(mode), positiveHours(hours, 'hours'));
    },
  );
}
