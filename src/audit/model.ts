// The audit log's records (governance.md "Audit log"): plain data, no SQL shapes, no HTTP.

export type ActorKind = 'operator' | 'account-token' | 'bot-token' | 'admin' | 'system';

/** One entry as it is written: who (Actor, ActorKind), what (Action), on what (Target), from where (Ip). */
export interface AuditEntry {
  /** '' when the entry concerns no account (an admin creating one, a sign-in with an unknown e-mail) */
  accountId: string;
  at: number;
  actor: string;
  actorKind: ActorKind;
  action: string;
  target: string;
  ip: string;
  /** names and safe values only, never a secret, password, token or message text (audit/details.ts) */
  details: Record<string, AuditValue>;
}

export type AuditValue = string | number | boolean | null | string[];

export interface StoredAuditEntry extends AuditEntry {
  id: number;
}

/** What a reader filters on; all optional but the account, newest first from `before` (the cursor). */
export interface AuditQuery {
  accountId: string;
  from?: number;
  to?: number;
  actor?: string;
  action?: string;
  /** only entries with a smaller id (the cursor of the previous page) */
  before?: number;
  limit: number;
}
