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

export interface BotAnalytics {
  BotId: string;
  BotName: string;
  From: string;
  To: string;
  Days: AnalyticsDay[];
  Totals: Omit<AnalyticsDay, 'Date'> & { FallbackShare: number };
  IdleMinutes: number;
  DropOff: { Behaviour: string | null; Interaction: string | null; Conversations: number }[];
}

export interface FlowNode {
  Id: string;
  Kind: 'behaviour' | 'interaction';
  Name: string;
  Behaviour: string | null;
  Start: boolean;
  Fallback: boolean;
}

export type EdgeKind = 'start' | 'goTo' | 'button' | 'success' | 'giveUp' | 'trigger';

export interface BotFlow {
  Nodes: FlowNode[];
  Edges: { From: string; To: string; Kind: EdgeKind; Label: string | null }[];
}
