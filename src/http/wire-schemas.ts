// The answers of the integration API as JSON Schemas, for the OpenAPI document (/docs) and for
// checking, in tests, that every answer matches what the document says (response-check.ts).
// They never shape an answer: the server writes replies with JSON.stringify, so a field missing
// here is a gap in the document, never a field dropped from the wire.
import { Type, type TSchema } from 'typebox';
import { BoundedInteger, INT32_MAX } from './bounded-integers.js';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Timestamp = Type.String({ description: 'ISO 8601, UTC' });

/** docs/errors.md: every failure. Extra members depend on the code (Field, Problems, Limit, Max, BanExpiration...). */
export const ErrorResponse = Type.Object(
  {
    Code: Type.String({ description: 'Stable code of docs/errors.md; branch on it' }),
    Message: Type.String({ description: 'For humans; may change' }),
    Field: Type.Optional(Type.String({ description: 'The offending field, when there is one' })),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse', additionalProperties: true, description: 'An error of the catalogue (docs/errors.md)' },
);

/**
 * A reply part nested `depth` more levels (Buttons → Button, Carousel → Card → Button). Parts a
 * client injects may leave `Type` out (a text); deeper nesting is bounded by limits.ts, not here.
 */
function partSchema(depth: number, injected = false): TSchema {
  // Injected parts come in a request, whose every integer is bounded (bounded-integers.ts).
  const integer = (options: { description: string; minimum?: number }) => (injected ? BoundedInteger(0, INT32_MAX, options) : Type.Integer(options));
  const type = integer({ description: '0 text, 1 button, 3 image, 5 carousel, 6 question, 9 video, 10 audio, 11 file, 13 buttons, 14 card, 17 link, 19 user text, 25 delay' });
  return Type.Object(
    {
      Type: injected ? Type.Optional(type) : type,
      Text: Type.Optional(Nullable(Type.String())),
      Command: Type.Optional(Nullable(Type.String({ description: 'A button payload: send it back as Command' }))),
      TypeDelay: Type.Optional(integer({ minimum: 0, description: 'Milliseconds to show typing first' })),
      BehaviourName: Type.Optional(Type.String()),
      InteractionName: Type.Optional(Type.String()),
      Url: Type.Optional(Type.String()),
      Title: Type.Optional(Type.String()),
      Subtitle: Type.Optional(Nullable(Type.String())),
      ImageUrl: Type.Optional(Nullable(Type.String())),
      Parts: Type.Optional(Type.Array(depth > 0 ? partSchema(depth - 1, injected) : Type.Object({}, { additionalProperties: true }))),
    },
    // Injected parts may carry types and members of their own (api.md section 3).
    { additionalProperties: true, title: injected ? 'InjectedPart' : 'ReplyPart' },
  );
}
export const ReplyPart = partSchema(2);
/** A reply part of the designer's preview: which interaction of the draft said it. */
const PreviewPart = Type.Intersect([
  ReplyPart,
  Type.Object({
    Source: Type.Optional(Type.Object({ Behaviour: Type.String(), Interaction: Type.String() }, { description: 'The behaviour and interaction of the draft this part came from (not on user texts)' })),
  }),
]);
export const InjectedPart = partSchema(2, true);

export const ChatReply = Type.Object(
  {
    Parts: Type.Array(ReplyPart),
    UserId: Type.String(),
    Creation: Timestamp,
    EnableUserChat: Type.Boolean(),
    ControlType: Type.Integer({ description: '0 bot, 1 operator requested, 2 taken over, 3 banned' }),
    Senders: Type.Optional(Type.Array(Type.String(), { description: 'Web resume only: who said each part (BOT, OPERATOR, USER)' })),
    OperatorName: Type.Optional(Nullable(Type.String({ description: 'Web resume only: the name of the operator who has the conversation (ControlType 2)' }))),
    OperatorAvatar: Type.Optional(Nullable(Type.String({ description: 'Web resume only: the picture of the operator who has the conversation, if they set one' }))),
    Times: Type.Optional(Type.Array(Type.String(), { description: 'Web resume only: when each part was said (ISO 8601)' })),
    Duplicate: Type.Optional(Type.Boolean({ description: 'Web messages only: this MessageId ran before; the reply is the history' })),
    StateSince: Type.Optional(Type.String({ description: 'Web resume only: when the control state last changed (ISO 8601)' })),
  },
  { additionalProperties: true },
);

/** What took the user text of a preview turn (preview only; no channel carries it). */
function PreviewMatch() {
  const place = { Behaviour: Nullable(Type.String()), Interaction: Nullable(Type.String()) };
  return Type.Object(
    {
      Kind: Type.Union(['keyword', 'regex', 'intent', 'input', 'knowledge', 'fallback'].map((k) => Type.Literal(k))),
      Name: Type.String({ description: "The trigger's alternatives, pattern or intent name; empty for input, knowledge and fallback" }),
      Score: Type.Optional(Type.Union([Type.Number(), Type.Literal('ai')], { description: "An intent trigger's score, two decimals ('ai': the AI fallback chose it)" })),
      Trigger: Type.Optional(Type.Object({ Behaviour: Nullable(Type.String()), Index: Type.Integer() }, { description: 'Where the trigger is defined: its behaviour (null: the bot) and its index' })),
      BestIntent: Type.Optional(Type.Object({ Name: Type.String(), Score: Type.Number() }, { description: "The model's best intent when no trigger took the text" })),
      ...place,
    },
    { description: 'What took the user text, and where the conversation stands after the turn (docs/designer.md "Why the bot answered")' },
  );
}

export const PreviewChatReply = Type.Object(
  {
    Parts: Type.Array(PreviewPart),
    UserId: Type.String({ description: 'The preview conversation' }),
    Creation: Timestamp,
    EnableUserChat: Type.Boolean(),
    ControlType: Type.Integer({ description: '0 bot, 1 operator requested, 2 taken over, 3 banned' }),
    Matched: Type.Optional(PreviewMatch()),
  },
  { additionalProperties: true },
);

export const BotConfig = Type.Object({
  Name: Type.String(),
  EnableTypeSpeed: Type.Boolean(),
  WordsPerMinute: Type.Optional(Nullable(Type.Number())),
  Avatar: Type.String(),
  Version: Type.Integer(),
  DefaultBehaviour: Type.Object({ Name: Nullable(Type.String()), APIKey: Nullable(Type.String()), APIToken: Nullable(Type.String()) }),
});

export const Position = Type.Object({ UserId: Type.String(), BehaviourName: Nullable(Type.String()), InteractionName: Nullable(Type.String()) });
export const SingleValue = Type.Object({ Value: Type.Union([Type.String(), Type.Boolean(), Type.Null()]) });

export const Values = Type.Object({
  UserId: Type.String(),
  Variables: Type.Array(Type.Object({ Name: Type.String(), Value: Type.String() })),
  Tags: Type.Array(Type.String()),
  PrivacyFlags: Type.Array(Type.Object({ Name: Type.String(), Enabled: Type.Boolean() })),
  Context: Type.Object({
    BehaviorName: Nullable(Type.String()),
    InteractionName: Nullable(Type.String()),
    Channel: Type.String(),
    ControlType: Type.Integer(),
  }),
});

const StateFields = {
  UserId: Type.String(),
  State: Type.Integer({ description: '0 bot, 1 operator requested, 2 taken over, 3 banned' }),
  Operator: Nullable(Type.String()),
  BanExpiration: Nullable(Type.String()),
  BanMessage: Nullable(Type.String()),
};
export const ConversationState = Type.Object(StateFields);
export const BeingForgotten = Type.Object({ UserId: Type.String(), State: Type.Literal('forgetting') });
export const ShareUrl = Type.Object({ Url: Type.String() });

export const Token = Type.Object({ token: Type.String(), expires: Type.Integer({ description: 'Minutes' }) });
export const Account = Type.Object({
  AccountId: Type.String(),
  AccountAPIKey: Type.Optional(Type.String({ description: 'Only when the account is created' })),
  Name: Type.String(),
  Plan: Type.String(),
  Packages: Type.Array(Type.String()),
});
export const Usage = Type.Object({ Month: Type.String(), Messages: Type.Integer(), Replies: Type.Integer(), Notifications: Type.Integer(), ApiCalls: Type.Integer(), AiTokens: Type.Integer() });
export const AccountWithUsage = Type.Object({ ...Account.properties, AuditDays: Type.Integer({ description: 'days the audit log keeps its entries' }), Usage });
export const AccountKey = Type.Object({ AccountAPIKey: Type.String() });
export const Operator = Type.Object({
  OperatorId: Type.String(),
  Email: Type.String(),
  Name: Type.String(),
  Role: Type.Union([Type.Literal('agent'), Type.Literal('designer'), Type.Literal('admin')]),
});

export const Deliveries = Type.Object({
  Result: Type.Array(
    Type.Object({
      DeliveryId: Type.String(),
      Event: Type.String(),
      UserId: Nullable(Type.String()),
      Status: Type.String({ description: 'pending, paused, delivered or failed' }),
      Attempts: Type.Integer(),
      LastStatusCode: Nullable(Type.Integer()),
      LastError: Nullable(Type.String()),
      CreatedAt: Timestamp,
      DeliveredAt: Nullable(Timestamp),
    }),
  ),
});
export const RetriedDelivery = Type.Object({ DeliveryId: Type.String(), Status: Type.String() });

export const WebConfig = Type.Object({
  Name: Type.String({ description: "the widget's title: settings.channels.web.title, else the bot's name" }),
  Avatar: Type.String(),
  Color: Type.String({ description: '#rrggbb' }),
  Greeting: Type.String({ description: 'shown above the conversation; empty for none' }),
  Position: Type.Union([Type.Literal('right'), Type.Literal('left')]),
});
export const SharedConversation = Type.Object({
  Mode: Type.String({ description: 'view, takeover or auto' }),
  ExpiresAt: Timestamp,
  CanSend: Type.Boolean(),
  Conversation: Type.Object(
    {
      ...StateFields,
      Name: Nullable(Type.String({ description: 'From the name or first_name variable' })),
      BotId: Type.String(),
      BotName: Type.String(),
      Channel: Type.String(),
      Creation: Timestamp,
      LastActivity: Timestamp,
      Preview: Type.String(),
    },
    { additionalProperties: true },
  ),
  Transcript: Type.Array(Type.Object({ Direction: Type.String(), At: Timestamp, Parts: Type.Array(ReplyPart) })),
});
export const SentParts = Type.Object({ Parts: Type.Array(ReplyPart) });
export const Health = Type.Object({ Status: Type.Literal('ok') });

/** A response that is not JSON: Server-Sent Events, Prometheus text. */
export const textResponse = (contentType: string, description: string) => ({ description, content: { [contentType]: { schema: { type: 'string' } } } });

// Messaging channels (channels.md)
const ChannelFields = {
  Channel: Type.String({ description: 'custom, web, telegram, whatsapp, messenger, slack, sms, chatwoot, instagram or teams' }),
  Enabled: Type.Boolean(),
  WebhookUrl: Nullable(Type.String({ description: "Where the platform sends its updates (the custom channel: the integrator's webhook)" })),
  Account: Type.Optional(Nullable(Type.String({ description: '@username, a phone number id or a page id' }))),
};
export const ChannelList = Type.Object({
  Result: Type.Array(Type.Object({ ...ChannelFields, LastInboundAt: Nullable(Timestamp), LastError: Nullable(Type.String()) })),
});
export const ConnectedChannel = Type.Object({
  ...ChannelFields,
  VerifyToken: Type.Optional(Type.String({ description: 'WhatsApp and Messenger: paste it into the Meta app' })),
  InteractivityUrl: Type.Optional(Type.String({ description: "Slack: paste it as the app's Interactivity Request URL" })),
});
export const PlatformAck = Type.Object({ ok: Type.Literal(true) });

// Understanding (understanding.md)
const Scored = { Intent: Type.String(), Score: Type.Number() };
export const ParsedText = Type.Object({
  Intent: Nullable(Type.String()),
  Score: Type.Number(),
  Alternatives: Type.Array(Type.Object(Scored)),
  Entities: Type.Array(Type.Object({ Name: Type.String(), Value: Type.String(), Text: Type.String() })),
});
export const MissedTexts = Type.Object({
  Result: Type.Array(Type.Object({ Text: Type.String(), Count: Type.Integer(), LastAt: Timestamp, Behaviour: Nullable(Type.String()), Interaction: Nullable(Type.String()) })),
});
export const AiSettings = Type.Object({
  BaseUrl: Nullable(Type.String()),
  Model: Nullable(Type.String()),
  Configured: Type.Boolean(),
  Source: Nullable(Type.Union([Type.Literal('bot'), Type.Literal('server')])),
  EmbeddingModel: Nullable(Type.String({ description: "the embedding model the bot's knowledge and intents use: its own, else the server's; null: words only" })),
  Deleted: Type.Optional(Type.Boolean()),
});
