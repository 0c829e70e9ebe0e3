// What the conversation use-case needs from storage, declared here and implemented by store/
// (SQLite and PostgreSQL) and, for unit tests, in memory. The same contract suite runs on all
// three (test/store/conversation-port.test.ts).
import type { UsageAdded } from '../accounts/model.js';
import type { BotRecord } from '../bots/model.js';
import type { AgentTraceStep, ReplyPart } from '../engine/types.js';
import type { NewOutboxRow } from '../webhooks/model.js';
import type { ApprovalAskedRow, BroadcastMessageButton, ConversationRecord, HistorySize, NewMessage, NewMissedText, ShareRecord, StoredMessage, StoredShare } from './model.js';

/** Reads of conversations, outside or inside a transaction. */
export interface ConversationReads {
  byUser(botId: string, userId: string): Promise<ConversationRecord | null>;
  byId(id: number): Promise<ConversationRecord | null>;
  /** the stored history, oldest first, as the JSON text of an array of parts */
  historyJson(conversationId: number): Promise<string>;
  /** the stored history's parts, oldest first; with `limit`, only the last `limit` */
  historyParts(conversationId: number, limit?: number): Promise<ReplyPart[]>;
  /** the last `limit` messages, oldest first, with who said them and when */
  storedMessages(conversationId: number, limit: number): Promise<StoredMessage[]>;
  /** conversations whose ban's last day is before `today` (YYYY-MM-DD) */
  endedBans(today: string, limit?: number): Promise<Array<{ botId: string; userId: string }>>;
}

/** What one turn writes, all in one transaction. */
export interface TurnWrites {
  conversations: ConversationReads & {
    /** the new conversation's id, or null when one with this bot and user id exists already */
    insert(c: Omit<ConversationRecord, 'id'>): Promise<number | null>;
    /** false when the stored revision is not `c.revision` (another writer got there first) */
    save(c: ConversationRecord): Promise<boolean>;
    /** returns the history's size after the append */
    appendMessages(conversationId: number, messages: NewMessage[], now: number): Promise<HistorySize>;
    /** keeps the newest `maxMessages` messages and at most `maxBytes` of parts; returns how many went */
    trimHistory(conversationId: number, maxMessages: number, maxBytes: number): Promise<number>;
    /** the parts of messages queued for PENDING, oldest first, marked delivered */
    takePending(conversationId: number): Promise<ReplyPart[]>;
  };
  outbox: { insert(row: NewOutboxRow): Promise<void> };
  /** messaging platforms' updates and contacts (channels.md) */
  channels: {
    /** false when this update was recorded already */
    markSeen(channelId: string, key: string, conversationId: number | null, at: number): Promise<boolean>;
    noteLastInbound(conversationId: number, messageId: string): Promise<void>;
    /** where the platform asked replies to this conversation to go (Teams' verified serviceUrl) */
    noteReplyAddress(conversationId: number, address: string): Promise<void>;
  };
  /** user texts that reached a fallback (understanding.md), deleted with their conversation */
  missedTexts: {
    /** adds a conversation's rows, then keeps its newest `keep` (docs/limits.md "Missed texts") */
    add(conversationId: number, rows: NewMissedText[], keep: number): Promise<void>;
  };
  accounts: { addUsage(accountId: string, month: string, add: UsageAdded): Promise<void> };
  /** a note for the operators (an agent's hand-over reason, agents.md); operatorId null: written by the bot */
  /** the steps of agent turns (agents.md "Trace"); a conversation keeps its newest `keep` */
  agentTraces: { add(conversationId: number, at: number, steps: AgentTraceStep[], keep: number): Promise<void> };
  agentApprovals: { add(row: ApprovalAskedRow): Promise<void> };
  notes: { insert(note: { conversationId: number; author: string; text: string; createdAt: number }, operatorId: string | null, keep: number): Promise<unknown> };
  /** a broadcast's recipient marked sent with its turn; a click on a broadcast's button (broadcasts.md) */
  broadcasts: {
    /** `delivered`: the turn's commit is its delivery (web: docs/decisions.md "Web broadcasts count as delivered") */
    markSent(r: { broadcastId: string; run: number; conversationId: number; claimedUntil: number }, now: number, delivered?: boolean): Promise<boolean>;
    behaviourOf(id: string): Promise<string | null>;
    noteClick(broadcastId: string, conversationId: number, now: number): Promise<void>;
  };
  /** a CSAT answer (docs/analytics.md "Waiting, first response and CSAT"); questions asked of a bot's knowledge, per UTC day (days since the epoch) */
  analytics: {
    addCsat(answer: { conversationId: number; botId: string; rating: number; at: number }): Promise<void>;
    countKnowledgeQuestions(botId: string, day: number, answered: number, unanswered: number): Promise<void>;
  };
  shares: {
    insert(share: ShareRecord): Promise<void>;
    makeViewOnly(conversationId: number): Promise<void>;
    dropAll(conversationId: number): Promise<void>;
    /** claims the hand-back of an expired `auto` link once; false when already claimed */
    markHandedBack(codeHash: string): Promise<boolean>;
  };
}

/** The usual writes of a turn on an existing conversation (ConversationStorage.saveTurn). */
export interface TurnSave {
  /** saved as `save` does: only if the stored revision is still `revision` */
  conversation: ConversationRecord;
  /**
   * false when the turn changed none of the control columns (control state, operator, ban, forgetting,
   * channel, control_changed_at): the store may then leave them, and the indexes over them, unwritten
   */
  controlChanged: boolean;
  messages: NewMessage[];
  usage: { accountId: string; month: string; add: UsageAdded } | null;
  /** user texts of this turn that reached a fallback (understanding.md) */
  missedTexts: NewMissedText[];
  /**
   * the history limits (docs/limits.md) the history must stay within after the append, and the
   * missed texts the conversation keeps (its oldest beyond go with this write)
   */
  limits: { messages: number; bytes: number; missedTexts: number };
}

/** `over-limit`: nothing was written because the history would cross a limit (the caller trims in a transaction). */
export type TurnSaveOutcome = 'saved' | 'conflict' | 'over-limit';

export interface ConversationStorage {
  conversations: ConversationReads & {
    remove(id: number): Promise<void>;
    /** conversations marked as being forgotten whose deletion has not happened yet */
    forgettingIds(): Promise<number[]>;
  };
  shares: { expiredAuto(now: number): Promise<StoredShare[]>; markHandedBack(codeHash: string): Promise<boolean> };
  bots: { byId(id: string): Promise<BotRecord | null> };
  /** when the user of a conversation wrote last (the platforms' 24-hour window); a button of a broadcast's own message */
  broadcasts: {
    lastUserAt(conversationId: number): Promise<number | null>;
    messageButton(botId: string, broadcastId: string, index: number): Promise<BroadcastMessageButton | null>;
  };
  /**
   * A turn's usual writes, atomically and durably, in the cheapest way the database offers
   * (PostgreSQL: one statement; SQLite: a few statements in the group's transaction).
   */
  saveTurn?(turn: TurnSave): Promise<TurnSaveOutcome>;
  /** runs `work` in one transaction: all its writes commit together, or none (it threw) */
  transaction<T>(work: (tx: TurnWrites) => Promise<T>): Promise<T>;
  /** resolves once the rows deleted so far have left the database's files too, as far as it can promise (docs/limits.md "Forgetting") */
  eraseDeleted(): Promise<void>;
}
