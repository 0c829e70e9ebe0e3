// api.md section 14: first-generation API channel clients. Same behaviour as the /custom twins;
// the bot API key is accepted as bearer whatever the simplified-auth setting.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { valuesView } from '../../conversations/values.js';
import { AppError } from '../../shared/errors.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { botConfig, CHAT_ANSWERS, ChatBody, chatInputOf, sendChatReply } from './custom.js';
import { BotConfig, Values } from '../wire-schemas.js';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';

const principalOf = (request: FastifyRequest) => request.principal as { account: AccountRecord; bot: BotRecord };

const StatusUpdate = Type.Object(
  {
    UpdateType: Type.Union([Type.Literal('set-var'), Type.Literal('del-var'), Type.Literal('set-tag'), Type.Literal('del-tag')]),
    Name: Type.String({ minLength: 1, maxLength: 256 }),
    Value: Type.Optional(Type.Union([Type.String({ maxLength: 65536 }), Type.Number(), Type.Boolean(), Type.Null()])),
    UserId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);
const StatusQuery = Type.Object({ userid: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) }, { additionalProperties: false });

/** The user id of a first-generation call: header `user-id`, else the `userid` query or body field. */
function userIdOf(request: FastifyRequest, fallback?: string): string {
  const header = request.headers['user-id'];
  const userId = typeof header === 'string' && header !== '' ? header : fallback;
  if (!userId) throw new AppError('INVALID_REQUEST', 'Send the user id in the user-id header.', { Field: 'user-id' });
  if (userId.length > 256) throw new AppError('INVALID_REQUEST', 'The user id is longer than 256 characters.', { Field: 'user-id' });
  return userId;
}

export function apihookRoutes(app: App, s: Services): void {
  const hook = { ...authed('apihook'), schema: { tags: ['first-generation API'], security: [{ bearer: [] }] } };

  app.post('/apihook/chat', { ...hook, schema: { ...hook.schema, summary: 'As POST /custom/chat', body: ChatBody, ...CHAT_ANSWERS } }, async (request, reply) => {
    const { bot } = principalOf(request);
    return sendChatReply(reply as FastifyReply, await s.chat.chat(bot, chatInputOf(request.body, request.headers)));
  });

  app.get(
    '/apihook/status',
    { ...hook, schema: { ...hook.schema, summary: 'As GET /custom/values', querystring: StatusQuery, response: { 200: Values }, errors: ['CONVERSATION_NOT_FOUND'] } },
    async (request) => {
      const { bot } = principalOf(request);
      const conversation = await s.conversations.find(bot, userIdOf(request, request.query.userid));
      if (!conversation) throw new AppError('CONVERSATION_NOT_FOUND');
      return valuesView(conversation);
    },
  );

  app.post(
    '/apihook/status',
    {
      ...hook,
      schema: {
        ...hook.schema,
        summary: 'Set or delete a variable or tag',
        body: StatusUpdate,
        response: { 200: Values },
        errors: ['CONVERSATION_NOT_FOUND', 'USER_BANNED', 'CONVERSATION_FORGETTING', 'LIMIT_EXCEEDED'],
      },
    },
    async (request) => {
      const { bot } = principalOf(request);
      const { UpdateType, Name, Value, UserId } = request.body;
      if (UpdateType === 'set-var' && Value === undefined) throw new AppError('INVALID_REQUEST', 'set-var needs a Value.', { Field: 'Value' });
      const updated = await s.chat.updateValue(bot, userIdOf(request, UserId), { kind: UpdateType, name: Name, value: Value });
      return valuesView(updated);
    },
  );

  app.get('/apihook/config', { ...hook, schema: { ...hook.schema, summary: 'As GET /custom/config', response: { 200: BotConfig } } }, async (request) => botConfig(s, principalOf(request).bot));
}
