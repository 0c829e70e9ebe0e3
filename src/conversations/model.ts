// The conversation model: what the conversation service, the channels and the console share,
// and what the store persists. Plain records, no SQL shapes.
import type { AgentMessage, AgentTraceStep, ConversationState, ReplyPart } from '../engine/types.js';

export type ControlState = 0 | 1 | 2 | 3;

export type Direction = 'USER' | 'BOT' | 'OPERATOR';

export interface ConversationRecord {
  id: number;
  botId: string;
  userId: string;
  channel: string;
  state: ConversationState;
  controlState: ControlState;
  operator: string | null;
  banExpiration: string | null;
  banMessage: string | null;
  forgetting: boolean;
  revision: number;
  /** when `controlState` last changed: how long a user has waited for a person (set by turns.ts) */
  controlChangedAt: number;
  createdAt: number;
  updatedAt: number;
}

/** How much a conversation's stored history holds (docs/limits.md bounds both). */
export interface HistorySize {
  messages: number;
  /** UTF-8 bytes of the stored parts (their JSON text) */
  bytes: number;
}

export interface NewMessage {
  direction: Direction;
  parts: ReplyPart[];
  /** queued for the next PENDING poll of a custom-channel client */
  pending: boolean;
}

export interface ConversationListing extends ConversationRecord {
  /** time of the last stored message (the conversation's creation when it has none) */
  lastActivity: number;
  /** parts of the last stored message, for a preview line */
  lastParts: ReplyPart[];
}

export interface StoredMessage {
  direction: Direction;
  parts: ReplyPart[];
  createdAt: number;
}

/** Shared conversation links (api.md section 9). */
export type ShareMode = 'view' | 'takeover' | 'auto';

/** A new link, its code in clear (to build its URL once). */
export interface ShareRecord {
  code: string;
  conversationId: number;
  mode: ShareMode;
  expiresAt: number;
  handedBack: boolean;
  createdAt: number;
}

/** A link as stored. */
export interface StoredShare extends Omit<ShareRecord, 'code'> {
  codeHash: string;
}

/** A user text that reached a fallback (understanding.md "missed texts"). */
export interface NewMissedText {
  botId: string;
  conversationId: number;
  text: string;
  /** what texts are grouped by: trimmed and lower-cased */
  key: string;
  behaviour: string;
  interaction: string;
  createdAt: number;
}

/** One agent turn's trace as stored (agents.md "Trace"). */
export interface AgentTraceRecord {
  at: number;
  steps: AgentTraceStep[];
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected';

/** A pending approval as a turn writes it. */
export interface ApprovalAskedRow {
  botId: string;
  conversationId: number;
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  turn: AgentMessage[];
  at: number;
}

/** A decision as the store records it (once). */
export interface ApprovalDecisionRow {
  status: Exclude<ApprovalStatus, 'pending'>;
  decidedBy: string;
  reason: string | null;
  arguments: Record<string, unknown>;
  at: number;
}

/** A call of an `approval: true` agent tool, waiting for (or decided by) a colleague (migration 031). */
export interface ApprovalRecord {
  id: number;
  conversationId: number;
  userId: string;
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** the agent turn so far, to go on from (engine ApprovalAsked.messages) */
  turn: AgentMessage[];
  status: ApprovalStatus;
  decidedBy: string | null;
  reason: string | null;
  at: number;
  decidedAt: number | null;
}

// A broadcast's own message, as stored with the broadcast and sent in a turn (broadcast-message.ts
// renders it into reply parts).

/** A button starts a behaviour of the live bot, or opens a link. */
export type BroadcastMessageButton = { Title: string; Behaviour: string; Url?: undefined } | { Title: string; Url: string; Behaviour?: undefined };

export interface BroadcastMessage {
  Text: string;
  Buttons?: BroadcastMessageButton[];
}
