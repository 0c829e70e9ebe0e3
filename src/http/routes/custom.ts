// api.md sections 2 to 6 and 14: the custom channel and its first-generation twins.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatInput } from '../../channels/custom/chat-service.js';
import { positionView, singleValue, valuesView, variableUpdates, DEFAULT_PRIVACY_FLAG } from '../../conversations/values.js';
import { AppError } from '../../shared/errors.js';
import { chatReplyJson } from '../../channels/custom/chat-reply.js';
import { authed, type App } from '../app.js';
import { BoundedInteger, INT32_MAX } from '../bounded-integers.js';
import type { Services } from '../services.js';
import { BotConfig, ChatReply, InjectedPart, Position, SingleValue, Values } from '../wire-schemas.js';
import type { Direction } from '../../conversations/model.js';
import type { ChatReply as ChatReplyValue } from '../../conversations/reply.js';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';

const Name = Type.String({ minLength: 1, maxLength: 256 });
const VariableValue = Type.Union([Type.String({ maxLength: 65536 }), Type.Number(), Type.Boolean(), Type.Null()]);

export const ChatBody = Type.Object(
  {
    UserId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    Command: Type.Optional(Type.String({ maxLength: 256 })),
    Text: Type.Optional(Type.String({ maxLength: 16384 })),
    Parts: Type.Optional(Type.Array(InjectedPart, { maxItems: 100, description: 'With DIRECTION BOT or OPERATOR: parts to add, shaped as reply parts' })),
    ForcedBehaviour: Type.Optional(Name),
    ForcedInteraction: Type.Optional(Name),
    ForcedBehaviourKey: Type.Optional(Name),
    Variables: Type.Optional(
      Type.Union([
        Type.Array(Type.Object({ Name, Value: VariableValue }, { additionalProperties: false }), { maxItems: 500 }),
        Type.Record(Type.String({ minLength: 1, maxLength: 256 }), VariableValue),
      ]),
    ),
    Tags: Type.Optional(Type.Array(Name, { maxItems: 500 })),
    DropTags: Type.Optional(Type.Array(Name, { maxItems: 500 })),
    Channel: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    HistoryLimit: Type.Optional(BoundedInteger(0, INT32_MAX, { description: 'READY: the newest parts to return' })),
  },
  { additionalProperties: false },
);
/** The answers of a chat turn (api.md section 3), shared with the first-generation twin. */
export const CHAT_ANSWERS = {
  response: { 200: ChatReply },
  errors: ['USER_BANNED', 'CONVERSATION_NOT_FOUND', 'CHANNEL_MISMATCH', 'CONVERSATION_FORGETTING', 'LIMIT_EXCEEDED', 'UNAVAILABLE'],
} as const;
type ChatBodyType = Type.Static<typeof ChatBody>;

const UserQuery = Type.Object({ userid: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
const ValueQuery = Type.Object(
  { userid: Type.String({ minLength: 1, maxLength: 256 }), type: Type.String({ maxLength: 32 }), name: Type.Optional(Type.String({ maxLength: 256 })) },
  { additionalProperties: false },
);

const principalOf = (request: FastifyRequest) => request.principal as { account: AccountRecord; bot: BotRecord };

function directionOf(header: unknown): Direction {
  const value = typeof header === 'string' ? header.trim().toUpperCase() : '';
  if (value === '' || value === 'USER') return 'USER';
  if (value === 'BOT' || value === 'OPERATOR') return value;
  throw new AppError('INVALID_REQUEST', 'DIRECTION must be USER, BOT or OPERATOR.', { Field: 'DIRECTION' });
}

export function chatInputOf(body: ChatBodyType, headers: FastifyRequest['headers']): ChatInput {
  const headerUser = typeof headers['user-id'] === 'string' && headers['user-id'] !== '' ? headers['user-id'] : undefined;
  const userId = body.UserId ?? headerUser;
  if (userId !== undefined && userId.length > 256) throw new AppError('INVALID_REQUEST', 'UserId is longer than 256 characters.', { Field: 'UserId' });
  const channel = body.Channel ?? (typeof headers.channel === 'string' && headers.channel !== '' ? headers.channel : undefined);
  return {
    userId,
    command: body.Command,
    text: body.Text,
    parts: body.Parts,
    forcedBehaviour: body.ForcedBehaviour,
    forcedInteraction: body.ForcedInteraction,
    forcedBehaviourKey: body.ForcedBehaviourKey,
    variables: variableUpdates(body.Variables),
    tags: body.Tags ?? [],
    dropTags: body.DropTags ?? [],
    channel,
    direction: directionOf(headers.direction),
    historyLimit: body.HistoryLimit,
  };
}

/** The chat reply goes out as the JSON text chat-reply.ts writes; Fastify sends a string as it is. */
export const sendChatReply = (reply: FastifyReply, answer: ChatReplyValue) => reply.type('application/json; charset=utf-8').send(chatReplyJson(answer));

/** api.md section 2. */
export async function botConfig(s: Services, bot: BotRecord) {
  const start = (await s.conversations.live(bot)).startBehaviour;
  const avatar = bot.avatar ? new URL(bot.avatar, `${s.config.publicUrl}/`).toString() : `${s.config.publicUrl}/avatar.svg`;
  return {
    Name: bot.name,
    EnableTypeSpeed: bot.settings.enableTypeSpeed === true,
    WordsPerMinute: bot.settings.wordsPerMinute,
    Avatar: avatar,
    Version: bot.version,
    // APIToken: the name Xenioo's published C# client reads; the same key.
    DefaultBehaviour: { Name: start?.name ?? null, APIKey: start?.apiKey ?? null, APIToken: start?.apiKey ?? null },
  };
}

export function customRoutes(app: App, s: Services): void {
  const chat = { ...authed('chat'), schema: { tags: ['custom channel'], security: [{ bearer: [] }] } };

  const conversationOf = async (request: FastifyRequest, userId: string) => {
    const conversation = await s.conversations.find(principalOf(request).bot, userId);
    if (!conversation) throw new AppError('CONVERSATION_NOT_FOUND');
    return conversation;
  };

  app.get('/custom/config', { ...chat, schema: { ...chat.schema, summary: "The bot's configuration", response: { 200: BotConfig } } }, async (request) => botConfig(s, principalOf(request).bot));

  app.post('/custom/chat', { ...chat, schema: { ...chat.schema, summary: 'Talk to the bot', body: ChatBody, ...CHAT_ANSWERS } }, async (request, reply) => {
    const { bot } = principalOf(request);
    return sendChatReply(reply as FastifyReply, await s.chat.chat(bot, chatInputOf(request.body, request.headers)));
  });

  app.get(
    '/custom/position',
    { ...chat, schema: { ...chat.schema, summary: "The conversation's position", querystring: UserQuery, response: { 200: Position }, errors: ['CONVERSATION_NOT_FOUND'] } },
    async (request) => positionView(await conversationOf(request, request.query.userid)),
  );

  app.get(
    '/custom/value',
    { ...chat, schema: { ...chat.schema, summary: 'One variable, tag or privacy flag', querystring: ValueQuery, response: { 200: SingleValue }, errors: ['CONVERSATION_NOT_FOUND'] } },
    async (request) => {
      const { userid, type, name } = request.query;
      const kind = type.toLowerCase();
      if (kind !== 'variable' && kind !== 'tag' && kind !== 'privacy') {
        throw new AppError('INVALID_REQUEST', 'type must be variable, tag or privacy.', { Field: 'type' });
      }
      if (kind !== 'privacy' && !name) throw new AppError('INVALID_REQUEST', `name is required for type ${kind}.`, { Field: 'name' });
      return { Value: singleValue(await conversationOf(request, userid), kind, name || DEFAULT_PRIVACY_FLAG) };
    },
  );

  app.get(
    '/custom/values',
    { ...chat, schema: { ...chat.schema, summary: 'All values of a conversation', querystring: UserQuery, response: { 200: Values }, errors: ['CONVERSATION_NOT_FOUND'] } },
    async (request) => valuesView(await conversationOf(request, request.query.userid)),
  );
}
