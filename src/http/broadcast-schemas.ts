// The broadcasts routes' bodies and answers (broadcasts.md), for validation and for /docs. Every
// input is bounded here; the service checks what a schema cannot (At's format, the behaviour).
import { Type } from 'typebox';
import { Nullable } from './wire-schemas.js';

const Text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
const Tags = Type.Array(Text(256), { maxItems: 100 });
const Channel = Type.Union([
  Type.Literal('custom'),
  Type.Literal('web'),
  Type.Literal('telegram'),
  Type.Literal('whatsapp'),
  Type.Literal('messenger'),
  Type.Literal('slack'),
  Type.Literal('sms'),
  Type.Literal('chatwoot'),
  Type.Literal('instagram'),
  Type.Literal('teams'),
]);
const Op = Type.Union([Type.Literal('eq'), Type.Literal('ne'), Type.Literal('exists'), Type.Literal('missing'), Type.Literal('lt'), Type.Literal('gt')]);
const Status = Type.Union([Type.Literal('scheduled'), Type.Literal('running'), Type.Literal('done'), Type.Literal('cancelled'), Type.Literal('failed')]);

export const BroadcastParams = Type.Object({ APIKey: Text(64) });
export const BroadcastIdParams = Type.Object({ APIKey: Text(64), BroadcastId: Text(64) });

export const AudienceSchema = Type.Object(
  {
    UserIds: Type.Optional(Type.Array(Text(256), { maxItems: 10_000, description: 'only these conversations' })),
    Channels: Type.Optional(Type.Array(Channel, { maxItems: 10 })),
    Tags: Type.Optional(Type.Object({ all: Type.Optional(Tags), any: Type.Optional(Tags), none: Type.Optional(Tags) }, { additionalProperties: false })),
    Variables: Type.Optional(
      Type.Array(
        Type.Object(
          {
            Name: Type.String({ minLength: 1, maxLength: 256 }),
            Op,
            Value: Type.Optional(Text(4096)),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
    ActiveWithinDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'the user wrote within this many days' })),
    InactiveForDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'the user has not written for this many days' })),
  },
  { additionalProperties: false, description: 'every given condition must hold; banned, forgotten, opted-out and operator-held conversations never belong' },
);

const TemplateSchema = Type.Object(
  {
    Name: Type.String({ minLength: 1, maxLength: 512, description: "a template approved in Meta's WhatsApp manager" }),
    Language: Type.String({ minLength: 2, maxLength: 15, description: 'its language code, e.g. en_US' }),
    Parameters: Type.Optional(Type.Array(Text(1024), { maxItems: 20, description: 'body parameters in order; {{variables}} of each conversation are filled in' })),
  },
  { additionalProperties: false },
);

const RepeatIn = Type.Object(
  { Every: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]), Until: Type.Optional(Text(40, 'ISO 8601 with offset; no run starts after it')) },
  { additionalProperties: false },
);

/** docs/broadcasts.md "A message of its own": bounded as a bot file's `buttons` action is shown by the widget and the platforms */
export const MAX_MESSAGE_BUTTONS = 10;
// one object with both fields optional (the service wants exactly one): a union of two closed
// objects is refused by the validator, which strips the other branch's field before it tries it
const MessageButton = Type.Object(
  {
    Title: Type.String({ minLength: 1, maxLength: 100 }),
    Behaviour: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'the behaviour of the live bot a click starts' })),
    Url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'an http(s) link the button opens' })),
  },
  { additionalProperties: false, description: 'give Behaviour or Url' },
);
export const MessageSchema = Type.Object(
  {
    Text: Type.String({ minLength: 1, maxLength: 4096, description: 'the text, with {{variables}} of each conversation' }),
    Buttons: Type.Optional(Type.Array(MessageButton, { maxItems: MAX_MESSAGE_BUTTONS })),
  },
  { additionalProperties: false, description: 'the text and buttons each recipient gets, instead of running a behaviour' },
);

export const CreateBroadcastBody = Type.Object(
  {
    Name: Type.String({ minLength: 1, maxLength: 200 }),
    Behaviour: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'the behaviour of the live bot each recipient runs (give it or Message)' })),
    Message: Type.Optional(MessageSchema),
    Audience: AudienceSchema,
    At: Type.Optional(Text(40, 'ISO 8601 with offset; default now')),
    Repeat: Type.Optional(RepeatIn),
    UserTimeZone: Type.Optional(Type.Boolean({ description: "send at At's clock time in each conversation's `timezone` variable (an IANA zone)" })),
    Variables: Type.Optional(Type.Record(Type.String({ maxLength: 256 }), Text(4096), { maxProperties: 50, description: 'set on each conversation in its broadcast turn' })),
    Template: Type.Optional(TemplateSchema),
  },
  { additionalProperties: false },
);

export const PreviewBody = Type.Object({ Audience: AudienceSchema }, { additionalProperties: false });
export const PreviewAnswer = Type.Object({ Count: Type.Integer(), Sample: Type.Array(Type.String(), { description: 'at most 20 UserIds' }) });

const Counts = Type.Object({
  Audience: Type.Integer({ description: 'recipients of the latest run' }),
  Pending: Type.Integer(),
  Sent: Type.Integer({ description: 'turns committed' }),
  Delivered: Type.Integer({ description: 'accepted by the platform (messaging) or the webhook (custom)' }),
  Failed: Type.Integer(),
  Skipped: Type.Integer(),
  Clicked: Type.Integer(),
  Reasons: Type.Record(Type.String(), Type.Integer(), { description: 'skipped and failed recipients by reason' }),
});

export const BroadcastView = Type.Object({
  BroadcastId: Type.String(),
  Name: Type.String(),
  Status,
  Behaviour: Nullable(Type.String()),
  Message: Nullable(MessageSchema),
  Audience: AudienceSchema,
  At: Type.String(),
  NextRunAt: Nullable(Type.String()),
  Repeat: Nullable(Type.Object({ Every: Type.String(), Until: Nullable(Type.String()) })),
  UserTimeZone: Type.Boolean(),
  Variables: Type.Record(Type.String(), Type.String()),
  Template: Nullable(TemplateSchema),
  Run: Type.Integer({ description: 'runs started so far' }),
  Error: Nullable(Type.String()),
  CreatedAt: Type.String(),
  Counts,
});
export const BroadcastList = Type.Object({ Result: Type.Array(BroadcastView, { description: 'newest first, at most 100' }) });
