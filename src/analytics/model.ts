// What the analytics service answers: a bot's figures for a period, per day and in total, with
// the previous period's beside them, and the picture of its flow (flow.ts). Kept apart from the
// service so that the CSV writer and the analytics page (ui/analytics/types.ts) can read the
// shapes without importing the code that makes them.
import type { CsatFigures, WaitFigures } from './figures.js';

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
