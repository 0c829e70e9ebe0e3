// Operators and their console sessions: plain records, and the names of the roles an operator has
// (what each role opens is roles.ts).
import type { ReplyPart } from '../engine/types.js';

export const OPERATOR_ROLES = ['agent', 'designer', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Operators created without a role, and every operator that existed before roles. */
export const DEFAULT_ROLE: OperatorRole = 'agent';

export const isOperatorRole = (value: unknown): value is OperatorRole => OPERATOR_ROLES.includes(value as OperatorRole);

export interface OperatorRecord {
  id: string;
  accountId: string;
  email: string;
  name: string;
  passwordHash: string;
  /** what the console opens to them (roles.ts) */
  role: OperatorRole;
  createdAt: number;
}

export interface OperatorSessionRecord {
  tokenHash: string;
  operatorId: string;
  expiresAt: number;
  createdAt: number;
}

/** Which operator has a conversation in the console (a separate table: docs/decisions.md "Console assignment"). */
export interface Assignment {
  conversationId: number;
  operatorId: string;
  operatorName: string;
  operatorEmail: string;
  assignedAt: number;
}

/** A private note between operators on a conversation: never sent to the user nor to webhooks. */
export interface NoteRecord {
  id: number;
  conversationId: number;
  /** the operator's name when it was written (kept when the operator is gone) */
  author: string;
  text: string;
  createdAt: number;
}

/** A canned response of an account: `shortcut` is what an operator types after `/` in the composer. */
export interface CannedResponse {
  id: number;
  accountId: string;
  shortcut: string;
  text: string;
  updatedAt: number;
}

/** A line of what happened to a conversation in the console (taken over, handed back, banned, resolved…). */
export interface ActivityRecord {
  id: number;
  conversationId: number;
  kind: string;
  /** the operator's display name when it happened */
  actor: string;
  /** e.g. the team or colleague a conversation went to, the end of a snooze */
  detail: string | null;
  createdAt: number;
}

/** A conversation's place in the inbox: open (null), resolved, or snoozed until a time; and its team. */
export interface InboxRecord {
  status: 'resolved' | 'snoozed' | null;
  snoozedUntil: number | null;
  team: { id: number; name: string } | null;
  changedAt: number;
}

export interface TeamRecord {
  id: number;
  name: string;
  memberIds: string[];
}

/** A message that holds the words searched for. */
export interface MessageHit {
  conversationId: number;
  direction: string;
  parts: ReplyPart[];
  createdAt: number;
}

/** An account's OpenID Connect provider for console sign-in (governance.md "Single sign-on"). */
export interface SsoSettingsRecord {
  accountId: string;
  issuer: string;
  clientId: string;
  /** plain in memory, sealed at rest (store/sso.ts); never sent by an API */
  clientSecret: string;
  /** lower case, each in this account only */
  domains: string[];
  defaultRole: OperatorRole;
  roleClaim: string | null;
  roleMap: Record<string, OperatorRole>;
  autoCreate: boolean;
  requireSso: boolean;
  updatedAt: number;
}

/** A sign-in sent to the provider and not yet back: what the callback must find to accept it. */
export interface SsoSignInRecord {
  /** sha256 of the `state` sent to the provider */
  stateHash: string;
  accountId: string;
  /** the PKCE code verifier (sealed at rest) */
  verifier: string;
  nonce: string;
  expiresAt: number;
}
