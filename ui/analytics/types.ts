// The answers of /console/api/bots/... (src/http/wire-schemas.ts BotAnalytics and BotFlow).

export interface AnalyticsDay {
  Date: string;
  Conversations: number;
  UserMessages: number;
  BotMessages: number;
  OperatorMessages: number;
  HandOvers: number;
  MissedTexts: number;
  KnowledgeAnswered: number;
  KnowledgeUnanswered: number;
}

export interface Durations {
  Count: number;
  P50Seconds: number | null;
  P90Seconds: number | null;
}

/** The headline figures of a period; the previous period has only these. */
export interface PeriodFigures {
  From: string;
  To: string;
  Totals: Omit<AnalyticsDay, 'Date'> & { FallbackShare: number };
  Waits: { Requests: number; Waiting: Durations; FirstResponse: Durations };
  Csat: { Answers: number; Average: number | null; Distribution: number[] };
}

export interface BotAnalytics extends PeriodFigures {
  BotId: string;
  BotName: string;
  Days: (AnalyticsDay & {
    Requests: number;
    WaitP50Seconds: number | null;
    WaitP90Seconds: number | null;
    FirstResponseP50Seconds: number | null;
    FirstResponseP90Seconds: number | null;
    CsatAnswers: number;
    CsatAverage: number | null;
  })[];
  IdleMinutes: number;
  DropOff: { Behaviour: string | null; Interaction: string | null; Conversations: number }[];
  Previous: PeriodFigures;
}

export interface FlowNode {
  Id: string;
  Kind: 'behaviour' | 'interaction';
  Name: string;
  Behaviour: string | null;
  Start: boolean;
  Fallback: boolean;
  HandOver: boolean;
}

export type EdgeKind = 'start' | 'goTo' | 'button' | 'success' | 'giveUp' | 'trigger';

export interface BotFlow {
  Nodes: FlowNode[];
  Edges: { From: string; To: string; Kind: EdgeKind; Label: string | null }[];
}
