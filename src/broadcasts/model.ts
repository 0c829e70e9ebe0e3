// Broadcasts (broadcasts.md) as the service, the scheduler and the store see them: plain records.
import type { BroadcastMessage, ControlState } from '../conversations/model.js';

export type { BroadcastMessage };

export type BroadcastStatus = 'scheduled' | 'running' | 'done' | 'cancelled' | 'failed';
export type RecipientStatus = 'pending' | 'sent' | 'delivered' | 'failed' | 'skipped';

export interface VariableCondition {
  Name: string;
  Op: 'eq' | 'ne' | 'exists' | 'missing' | 'lt' | 'gt';
  Value?: string;
}

export interface Audience {
  UserIds?: string[];
  Channels?: Array<'custom' | 'web' | 'telegram' | 'whatsapp' | 'messenger' | 'slack' | 'sms' | 'chatwoot' | 'instagram' | 'teams'>;
  Tags?: { all?: string[]; any?: string[]; none?: string[] };
  Variables?: VariableCondition[];
  ActiveWithinDays?: number;
  InactiveForDays?: number;
}

export interface Template {
  Name: string;
  Language: string;
  /** body parameters, each a text with {{variables}} of the conversation */
  Parameters?: string[];
}

export interface Repeat {
  Every: 'day' | 'week' | 'month';
  /** ms; no run starts after it */
  Until?: number;
}

/** What a broadcast does, as created; stored as JSON. */
export interface BroadcastSpec {
  /** the behaviour of the live bot each recipient runs; null when the broadcast carries its own Message */
  Behaviour: string | null;
  /** the broadcast's own text and buttons (absent in broadcasts made before messages existed) */
  Message?: BroadcastMessage | null;
  Audience: Audience;
  Repeat: Repeat | null;
  UserTimeZone: boolean;
  /** variables set on each conversation in the broadcast's turn */
  Variables: Record<string, string>;
  Template: Template | null;
  /** the offset `At` was given with, in minutes east of UTC (UserTimeZone keeps its clock time) */
  AtOffsetMinutes: number;
}

export interface BroadcastRecord {
  id: string;
  botId: string;
  name: string;
  spec: BroadcastSpec;
  status: BroadcastStatus;
  /** ms: the first run's time */
  at: number;
  /** ms: when the next run starts (scheduled), null once none will */
  nextRunAt: number | null;
  /** runs started so far (0 until the first starts) */
  run: number;
  claimedUntil: number;
  claimedBy: string | null;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

/** One conversation an audience may include, with what the conditions read. */
export interface AudienceCandidate {
  conversationId: number;
  userId: string;
  channel: string;
  state: { variables: Record<string, string>; tags: string[] };
  controlState: ControlState;
  banExpiration: string | null;
  forgetting: boolean;
  /** when the user last wrote (ms); the conversation's creation when no message of theirs is kept */
  lastUserAt: number;
}

export interface NewRecipient {
  conversationId: number;
  channel: string;
  dueAt: number;
}

export interface ClaimedRecipient {
  broadcastId: string;
  run: number;
  conversationId: number;
  userId: string;
  channel: string;
  claimedUntil: number;
}

export interface RecipientCounts {
  Audience: number;
  Pending: number;
  Sent: number;
  Delivered: number;
  Failed: number;
  Skipped: number;
  Clicked: number;
  /** skipped and failed recipients by reason */
  Reasons: Record<string, number>;
}
