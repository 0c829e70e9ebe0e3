// What governance asks of storage (governance.md "Retention", "Personal-data export"): the
// retention policy's bots, due conversations and the mark it sets, and the export's reads, page
// by page. Implemented by store/retention-policy.ts and store/personal-data.ts on both databases.
import type { AuditEntry } from '../audit/model.js';
import type { BotSettings } from '../engine/bot-file.js';
import type { ConversationRecord } from './model.js';

export type PersonalDataSection =
  | 'History'
  | 'Notes'
  | 'Activity'
  | 'AnalyticsEvents'
  | 'MissedTexts'
  | 'Deliveries'
  | 'Broadcasts'
  | 'Shares'
  | 'AgentTraces'
  | 'Approvals'
  | 'Assignment'
  | 'Inbox'
  | 'WebVisitor'
  | 'ChannelContact';

export interface PersonalDataStorage {
  conversations: { byUser(botId: string, userId: string): Promise<ConversationRecord | null> };
  personalData: {
    /** Up to `limit` rows of one section with a key above `after`, in key order. */
    page(section: PersonalDataSection, conversationId: number, after: number, limit: number): Promise<Array<{ key: number; row: Record<string, unknown> }>>;
  };
}

/** Conversations due: changed last before `idleBefore`, or created before `createdBefore` (0: that rule is off). */
export interface DueRule {
  idleBefore: number;
  createdBefore: number;
}

export interface MarkedConversation {
  id: number;
  botId: string;
  userId: string;
  channel: string;
}

export interface RetentionPolicyStorage {
  retentionPolicy: {
    botsWithRetention(): Promise<Array<{ id: string; accountId: string; settings: BotSettings }>>;
    countDue(botId: string, rule: DueRule): Promise<number>;
  };
  meta: { get(key: string): Promise<string | null>; set(key: string, value: string): Promise<void> };
  transaction<T>(
    work: (tx: { retentionPolicy: { markDue(botId: string, rule: DueRule, limit: number): Promise<MarkedConversation[]> }; audit: { append(entry: AuditEntry): Promise<void> } }) => Promise<T>,
  ): Promise<T>;
}
