// What the operators' side needs from storage (the console's views and intents, its workspace and
// inbox, the team, presence, sessions, share links, what web visitors tell operators), declared
// here and implemented by store/ (operators.ts, operator-sessions.ts, console-workspace.ts,
// console-inbox.ts, presence.ts, shares.ts, web-visitors.ts) on SQLite and PostgreSQL. wiring/
// hands each service the slice named after it, never the whole store.
import type { AccountRecord } from '../accounts/model.js';
import type { BotRecord } from '../bots/model.js';
import type { WebVisitorRepository } from '../channels/web/port.js';
import type { ConversationReads } from '../conversations/port.js';
import type { ConversationListing, ShareRecord, StoredShare } from '../conversations/model.js';
import type { SsoStorage } from './sso-port.js';
import type { ActivityRecord, Assignment, CannedResponse, InboxRecord, MessageHit, NoteRecord, OperatorRecord, OperatorSessionRecord, TeamRecord } from './model.js';

/** An account's operators and their invitations. */
export interface OperatorRepository {
  /** false when the account has an operator with this email already */
  insert(op: OperatorRecord): Promise<boolean>;
  setRole(accountId: string, operatorId: string, role: OperatorRecord['role']): Promise<OperatorRecord | null>;
  byId(id: string): Promise<OperatorRecord | null>;
  ofAccount(accountId: string): Promise<OperatorRecord[]>;
  /** the operators of every account with this e-mail (signing in names no account) */
  allByEmail(email: string): Promise<OperatorRecord[]>;
  setPasswordHash(id: string, passwordHash: string): Promise<void>;
  remove(accountId: string, id: string): Promise<boolean>;
  setInvite(operatorId: string, tokenHash: string, expiresAt: number): Promise<void>;
  /** the invited operator's id, once, while the invitation is still valid */
  takeInvite(tokenHash: string, now: number): Promise<string | null>;
}

/** Which operator has a conversation (docs/decisions.md "Console assignment"). */
export interface AssignmentRepository {
  assign(conversationId: number, operatorId: string, now: number): Promise<void>;
  unassign(conversationId: number): Promise<void>;
  ofConversations(conversationIds: number[]): Promise<Map<number, Assignment>>;
}

/** A conversation's place in the inbox and its team. */
export interface InboxRepository {
  setStatus(conversationId: number, status: InboxRecord['status'], snoozedUntil: number | null, now: number): Promise<void>;
  setTeam(conversationId: number, teamId: number | null, now: number): Promise<void>;
  ofConversations(ids: number[]): Promise<Map<number, InboxRecord>>;
}

export interface TeamRepository {
  ofAccount(accountId: string): Promise<TeamRecord[]>;
  /** null when the account has a team with this name already */
  create(accountId: string, name: string, now: number): Promise<number | null>;
  remove(accountId: string, teamId: number): Promise<boolean>;
  setMembers(teamId: number, operatorIds: string[], now: number): Promise<void>;
  /** the member among `candidates` whose turn it is (round robin), or null */
  nextMember(teamId: number, candidates: string[], now: number): Promise<string | null>;
}

export interface NoteRepository {
  /** adds a note and keeps the conversation's newest `keep` */
  insert(note: Omit<NoteRecord, 'id'>, operatorId: string, keep: number): Promise<NoteRecord>;
  ofConversation(conversationId: number, limit: number): Promise<NoteRecord[]>;
}

export interface CannedResponseRepository {
  ofAccount(accountId: string): Promise<CannedResponse[]>;
  /** null when the shortcut is taken, 'full' when the account has `max` already */
  insert(c: Omit<CannedResponse, 'id'>, max: number): Promise<CannedResponse | null | 'full'>;
  update(c: CannedResponse): Promise<'updated' | 'missing' | 'taken'>;
  remove(accountId: string, id: number): Promise<boolean>;
}

export interface ActivityRepository {
  insert(a: Omit<ActivityRecord, 'id'>): Promise<void>;
  ofConversation(conversationId: number, limit: number): Promise<ActivityRecord[]>;
}

type AccountReads = { byId(id: string): Promise<AccountRecord | null> };
type BotReads = { byId(id: string): Promise<BotRecord | null>; byAccount(accountId: string): Promise<BotRecord[]> };

/** Messages indexed for the console's search (operators/message-index.ts). */
export interface MessageIndexStorage {
  /** indexes up to `batch` messages stored since the last call; how many */
  indexNewMessages(batch: number): Promise<number>;
}

/** The console's list, transcript and intents (console-service.ts). */
export interface ConsoleStorage {
  bots: BotReads;
  conversations: Pick<ConversationReads, 'byUser' | 'storedMessages'> & { listByBots(botIds: string[], limit: number): Promise<ConversationListing[]> };
  operators: Pick<OperatorRepository, 'ofAccount'>;
  assignments: Pick<AssignmentRepository, 'assign' | 'ofConversations'>;
  inbox: Pick<InboxRepository, 'ofConversations'>;
  notes: Pick<NoteRepository, 'ofConversation'>;
  activity: ActivityRepository;
  agentApprovals: { pendingCounts(conversationIds: number[]): Promise<Map<number, number>> };
}

/** Assignments, notes and canned responses (console-workspace.ts). */
export interface WorkspaceStorage {
  operators: Pick<OperatorRepository, 'byId'>;
  assignments: AssignmentRepository;
  cannedResponses: CannedResponseRepository;
  transaction<T>(work: (tx: { notes: Pick<NoteRepository, 'insert'>; cannedResponses: Pick<CannedResponseRepository, 'insert'> }) => Promise<T>): Promise<T>;
}

/** Who has the console open, on any node (presence.ts). */
export interface PresenceStorage {
  presence: {
    /** this node holds a stream of the operator until `expiresAt` */
    beat(operatorId: string, nodeId: string, expiresAt: number, now: number): Promise<void>;
    leave(operatorId: string, nodeId: string): Promise<void>;
    online(operatorIds: string[], now: number): Promise<Set<string>>;
  };
}

/** Search, resolve, snooze, transfer and teams (console-inbox.ts). */
export interface InboxStorage extends MessageIndexStorage, PresenceStorage {
  bots: Pick<BotReads, 'byAccount'>;
  conversations: Pick<ConversationReads, 'byId'>;
  messageSearch: { find(botIds: string[], queryWords: string[], limit: number): Promise<MessageHit[]> };
  operators: Pick<OperatorRepository, 'byId' | 'ofAccount'>;
  assignments: AssignmentRepository;
  inbox: InboxRepository;
  teams: TeamRepository;
  transaction<T>(work: (tx: { inbox: InboxRepository; teams: TeamRepository }) => Promise<T>): Promise<T>;
}

/** The operators an account's admin adds and their roles (admin-operators.ts). */
export interface OperatorAdminStorage {
  operators: Pick<OperatorRepository, 'insert' | 'setRole' | 'remove'>;
}

/** The team page: operators, their roles and invitations (team.ts). */
export interface TeamStorage {
  operators: OperatorRepository;
  transaction<T>(work: (tx: { operators: OperatorRepository }) => Promise<T>): Promise<T>;
}

/** Console sign-in and its sessions (sessions.ts). */
export interface SessionStorage {
  operators: Pick<OperatorRepository, 'byId' | 'allByEmail'>;
  accounts: AccountReads;
  operatorSessions: {
    insert(s: OperatorSessionRecord): Promise<void>;
    byTokenHash(tokenHash: string): Promise<OperatorSessionRecord | null>;
    remove(tokenHash: string): Promise<void>;
    removeExpired(now: number): Promise<number>;
  };
  /** whether the account requires single sign-on (a password sign-in is then refused) */
  sso: Pick<SsoStorage['sso'], 'get'>;
}

/** Share links of a conversation (share-service.ts). */
export interface ShareStorage {
  conversations: Pick<ConversationReads, 'byUser' | 'byId'>;
  shares: { insert(s: ShareRecord): Promise<void>; byCode(code: string): Promise<StoredShare | null> };
  bots: Pick<BotReads, 'byId'>;
}

/** The page a share link opens (share-access.ts). */
export interface ShareAccessStorage {
  accounts: AccountReads;
  conversations: Pick<ConversationReads, 'storedMessages'>;
}

/** What a web visitor told the operators, and the operator's own avatar (web-visitors.ts). */
export interface WebVisitorPanelStorage {
  webVisitors: Pick<WebVisitorRepository, 'of' | 'earlier' | 'setOperatorAvatar' | 'operatorAvatar'>;
}
