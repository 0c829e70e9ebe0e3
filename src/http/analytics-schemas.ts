// The analytics routes' answers (docs/analytics.md), for validation and for /docs.
import { Type } from 'typebox';
import { Nullable } from './wire-schemas.js';

const Count = Type.Integer({ minimum: 0 });
const Seconds = Nullable(Type.Integer({ minimum: 0 }));
const Counts = {
  Conversations: Count,
  UserMessages: Count,
  BotMessages: Count,
  OperatorMessages: Count,
  HandOvers: Count,
  MissedTexts: Count,
  KnowledgeAnswered: Type.Integer({ minimum: 0, description: 'questions the knowledge answered (knowledge action or beforeFallback), preview excluded' }),
  KnowledgeUnanswered: Type.Integer({ minimum: 0, description: 'questions asked of the knowledge and not answered (NO_ANSWER, ERROR, TIMEOUT)' }),
};
const Durations = Type.Object({ Count, P50Seconds: Seconds, P90Seconds: Seconds });
const Csat = Type.Object({
  Answers: Count,
  Average: Nullable(Type.Number({ minimum: 1, maximum: 5, description: 'mean rating, two decimals' })),
  Distribution: Type.Array(Count, { minItems: 5, maxItems: 5, description: 'answers rated 1, 2, 3, 4 and 5' }),
});
const PeriodFigures = {
  From: Type.String({ description: 'YYYY-MM-DD, UTC, included' }),
  To: Type.String({ description: 'YYYY-MM-DD, UTC, included' }),
  Totals: Type.Object({ ...Counts, FallbackShare: Type.Number({ minimum: 0, maximum: 1, description: 'MissedTexts / UserMessages' }) }),
  Waits: Type.Object({
    Requests: Type.Integer({ minimum: 0, description: 'waits for a person that began in the period' }),
    Waiting: { ...Durations, description: 'from waiting for a person to the takeover' },
    FirstResponse: { ...Durations, description: "from waiting for a person to the operator's first message" },
  }),
  Csat,
};

export const BotAnalytics = Type.Object({
  BotId: Type.String(),
  BotName: Type.String(),
  ...PeriodFigures,
  Days: Type.Array(
    Type.Object({
      Date: Type.String(),
      ...Counts,
      Requests: Count,
      WaitP50Seconds: Seconds,
      WaitP90Seconds: Seconds,
      FirstResponseP50Seconds: Seconds,
      FirstResponseP90Seconds: Seconds,
      CsatAnswers: Count,
      CsatAverage: Nullable(Type.Number()),
    }),
  ),
  IdleMinutes: Type.Integer({ description: 'DropOff counts conversations idle at least this long' }),
  DropOff: Type.Array(Type.Object({ Behaviour: Nullable(Type.String()), Interaction: Nullable(Type.String()), Conversations: Count })),
  Previous: Type.Object(PeriodFigures, { description: 'the same figures for the period of the same length just before' }),
});
export const BotFlow = Type.Object({
  Nodes: Type.Array(
    Type.Object({
      Id: Type.String(),
      Kind: Type.Union([Type.Literal('behaviour'), Type.Literal('interaction')]),
      Name: Type.String(),
      Behaviour: Nullable(Type.String()),
      Start: Type.Boolean(),
      Fallback: Type.Boolean(),
      HandOver: Type.Boolean({ description: 'an interaction whose actions hand the conversation to a person (an operator action asking for one or taking over)' }),
    }),
  ),
  Edges: Type.Array(
    Type.Object({
      From: Type.String(),
      To: Type.String(),
      Kind: Type.String({ description: 'start, goTo, button, success, giveUp or trigger' }),
      Label: Nullable(Type.String()),
    }),
  ),
});
