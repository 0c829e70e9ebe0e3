// What broadcasts need from storage, declared here and implemented by store/broadcasts.ts on SQLite
// and PostgreSQL. wiring.ts hands the API's service and the scheduler this slice, never the whole
// store. The recipient writes a turn makes (markSent, noteClick) are the conversations' port's.
import type { UsageAdded } from '../accounts/model.js';
import type { BotRecord } from '../bots/model.js';
import type { AudienceCandidate, BroadcastRecord, BroadcastStatus, ClaimedRecipient, NewRecipient, RecipientCounts } from './model.js';

/** A broadcast's webhook notice, due at `due`, tried `attempts` times. */
export interface DueNotice {
  id: string;
  botId: string;
  body: string;
  attempts: number;
  due: number;
}

type RecipientKey = Pick<ClaimedRecipient, 'broadcastId' | 'run' | 'conversationId' | 'claimedUntil'>;

export interface BroadcastRepository {
  byId(botId: string, id: string): Promise<BroadcastRecord | null>;
  byBot(botId: string, limit: number): Promise<BroadcastRecord[]>;
  /** false when the bot has `max` active broadcasts already (in a transaction) */
  insertWithin(b: BroadcastRecord, max: number): Promise<boolean>;
  /** false when another node holds it, or (node null) when it is no longer active */
  update(id: string, node: string | null, change: { status: BroadcastStatus; run?: number; nextRunAt?: number | null; error?: string | null }, now: number): Promise<boolean>;
  skipPending(broadcastId: string, reason: string): Promise<number>;
  counts(broadcastId: string, run: number): Promise<RecipientCounts>;
  /** the audience's conversations after `afterId`, in id order (audience.ts) */
  candidates(botId: string, afterId: number, limit: number, userIds?: string[]): Promise<AudienceCandidate[]>;
  /** the scheduler's leases and per-recipient claims (broadcasts.md) */
  lease(node: string, now: number, until: number, limit: number): Promise<BroadcastRecord[]>;
  release(node: string): Promise<void>;
  addRecipients(broadcastId: string, run: number, recipients: NewRecipient[]): Promise<void>;
  claimRecipients(broadcastId: string, run: number, channel: string, now: number, until: number, limit: number): Promise<ClaimedRecipient[]>;
  markUnsent(r: RecipientKey, status: 'skipped' | 'failed', reason: string): Promise<boolean>;
  /** the webhook notice of a broadcast's change (notice-delivery.ts) */
  setNotice(id: string, body: string | null, due: number): Promise<void>;
  dueNotices(now: number, limit: number): Promise<DueNotice[]>;
  claimNotice(id: string, body: string, due: number, until: number): Promise<boolean>;
  retryNotice(id: string, body: string, due: number): Promise<void>;
  noticeDone(id: string, body: string): Promise<void>;
}

/** What a broadcast's change runs in one transaction. */
export interface BroadcastWrites {
  broadcasts: BroadcastRepository;
}

export interface BroadcastStorage extends BroadcastWrites {
  bots: { byId(id: string): Promise<BotRecord | null> };
  /** the notifications a run sent, counted as the account's usage */
  accounts: { addUsage(accountId: string, month: string, add: UsageAdded): Promise<void> };
  transaction<T>(work: (tx: BroadcastWrites) => Promise<T>): Promise<T>;
}
