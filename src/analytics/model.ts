// What the analytics service answers: a bot's figures for a period, per day and in total, with
// the previous period's beside them, and the picture of its flow (flow.ts). Kept apart from the
// service so that the CSV writer and the analytics page (ui/analytics/types.ts) can read the
// shapes without importing the code that makes them. Below them, the rows analytics reads from
// storage (port.ts): analytics owns them and store/analytics.ts returns them.
import type { Durations } from '../shared/durations.js';

export interface AnalyticsDay {
  Date: string;
  Conversations: number;
  UserMessages: number;
  BotMessages: number;
  OperatorMessages: number;
  HandOvers: number;
  MissedTexts: number;
  /** questions asked of the knowledge in conversations (knowledge.md), answered and not */
  KnowledgeAnswered: number;
  KnowledgeUnanswered: number;
}

export type Counted = Exclude<keyof AnalyticsDay, 'Date'>;

/** The per-day figures that are not counts: waits begun that day and CSAT answers given that day. */
export interface DayFigures {
  Requests: number;
  WaitP50Seconds: number | null;
  WaitP90Seconds: number | null;
  FirstResponseP50Seconds: number | null;
  FirstResponseP90Seconds: number | null;
  CsatAnswers: number;
  CsatAverage: number | null;
}

export type Totals = Record<Counted, number> & { FallbackShare: number };

/** The headline figures of a period (the previous period has only these). */
export interface PeriodFigures {
  From: string;
  To: string;
  Totals: Totals;
  Waits: WaitFigures;
  Csat: CsatFigures;
}

export interface BotAnalytics extends PeriodFigures {
  BotId: string;
  BotName: string;
  Days: (AnalyticsDay & DayFigures)[];
  IdleMinutes: number;
  DropOff: { Behaviour: string | null; Interaction: string | null; Conversations: number }[];
  /** the same figures for the period of the same length just before */
  Previous: PeriodFigures;
}

/** `start`: a behaviour to its start interaction, where a goTo naming only the behaviour lands */
export type EdgeKind = 'start' | 'goTo' | 'button' | 'success' | 'giveUp' | 'trigger';

export interface FlowNode {
  Id: string;
  Kind: 'behaviour' | 'interaction';
  Name: string;
  /** the behaviour an interaction belongs to; null for a behaviour */
  Behaviour: string | null;
  Start: boolean;
  Fallback: boolean;
  /** an interaction whose actions (nested ones too) hand the conversation to a person: an operator action in request or takeover mode */
  HandOver: boolean;
}

export interface FlowEdge {
  From: string;
  To: string;
  Kind: EdgeKind;
  /** a button's text, a trigger's "pattern", /regex/ or intent name; null otherwise */
  Label: string | null;
}

export interface BotFlow {
  Nodes: FlowNode[];
  Edges: FlowEdge[];
}

/** The waits for a person of a period or a day (figures.ts works them out from the rows below). */
export interface WaitFigures {
  /** waits for a person that began in the period */
  Requests: number;
  /** request → takeover, for the waits an operator took over */
  Waiting: Durations;
  /** request → the operator's first message, for the waits that got one */
  FirstResponse: Durations;
}

/** CSAT answers of a period or a day (figures.ts). */
export interface CsatFigures {
  Answers: number;
  /** mean rating with two decimals; null without answers */
  Average: number | null;
  /** answers per rating: [ones, twos, threes, fours, fives] */
  Distribution: number[];
}

// The rows the store counts and reads for the figures above (analytics/port.ts); days are UTC days
// since the epoch (shared/durations.ts DAY_MS).

/** [from, to) in milliseconds */
export interface Period {
  from: number;
  to: number;
}

export interface DayCount {
  /** days since the epoch (UTC) */
  day: number;
  count: number;
}

export interface DayDirectionCount extends DayCount {
  direction: string;
}

export interface KnowledgeDay {
  day: number;
  answered: number;
  unanswered: number;
}

/** A wait for a person (a change to control state 1) and how it ended, in milliseconds. */
export interface WaitRow {
  requestedAt: number;
  /** when an operator took it over (the next state change was to 2); null otherwise */
  takenAt: number | null;
  /** the first operator message after the request and before the conversation's next request */
  answeredAt: number | null;
}

export interface CsatCount extends DayCount {
  rating: number;
}

/** One stored message of a transcript export, in (conversation, message) order. */
export interface TranscriptRow {
  conversationId: number;
  messageId: number;
  userId: string;
  channel: string;
  direction: string;
  parts: string;
  createdAt: number;
}

export interface StandingCount {
  behaviour: string | null;
  interaction: string | null;
  count: number;
}
