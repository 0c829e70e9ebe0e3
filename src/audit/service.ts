// The audit log (governance.md "Audit log"): the one recorder every audited change goes through
// (the HTTP layer's hook for every state-changing route, http/audit.ts; maintenance for retention
// runs; sign-ins of any method through `signIn`), the reader behind GET /account/audit and its CSV,
// and the expiry of entries past their account's AuditDays. Recording never throws: a failed write
// is logged and the request it records is not undone (it already happened).
import type { Clock } from '../shared/clock.js';
import { safeDetails } from './details.js';
import type { AuditEntry, AuditQuery, StoredAuditEntry } from './model.js';
import type { AuditStorage } from './port.js';

/** What a caller hands in: the time and the cleaning of Details are the recorder's. */
export type AuditRecord = Omit<AuditEntry, 'at' | 'details'> & { details?: Record<string, unknown> };

/** How an operator signed in (or tried): the console's password form, or single sign-on. */
export type SignInMethod = 'password' | 'sso';

export interface SignInAttempt {
  method: SignInMethod;
  /** the e-mail typed or asserted; bounded here */
  email: string;
  ok: boolean;
  ip: string;
  /** the account signed in to; for a failure, left out: every account that e-mail is an operator of gets the entry */
  accountId?: string;
  /** why a failure failed, in words with no secret in them (e.g. 'wrong password', 'nonce mismatch') */
  reason?: string;
  /** more of what happened, safe to keep (single sign-on: whether the operator was made, the role given) */
  details?: Record<string, unknown>;
}

export const AUDIT_PAGE_MAX = 500;
/** Accounts a failed sign-in is written to, at most (sessions.ts checks as many candidates). */
const SIGN_IN_ACCOUNTS = 4;
const EXPIRE_BATCH = 1000;
/** accounts.audit_days' default (migration 028, governance.md) */
const DEFAULT_AUDIT_DAYS = 365;

export class AuditLog {
  constructor(
    private readonly store: AuditStorage,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async record(entry: AuditRecord): Promise<void> {
    const { details, ...rest } = entry;
    try {
      await this.store.audit.append({ ...rest, actor: rest.actor.slice(0, 254), target: rest.target.slice(0, 500), at: this.clock.now(), details: safeDetails(details ?? {}) });
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * A sign-in, successful or not, by any method: the one call the password form and single
   * sign-on both make. A failure with an e-mail no account knows is kept under no account ('').
   */
  async signIn(attempt: SignInAttempt): Promise<void> {
    const email = attempt.email.trim().toLowerCase().slice(0, 254);
    const accounts = attempt.accountId !== undefined ? [attempt.accountId] : await this.accountsOf(email);
    const details = { ...attempt.details, Method: attempt.method, Outcome: attempt.ok ? 'success' : 'failure', ...(attempt.reason ? { Reason: attempt.reason } : {}) };
    for (const accountId of accounts) {
      await this.record({ accountId, actor: email, actorKind: 'operator', action: attempt.ok ? 'signin' : 'signin.failed', target: `operator:${email}`, ip: attempt.ip, details });
    }
  }

  /**
   * An entry by someone known only by an e-mail (an invited teammate joining): written to every
   * account that e-mail is an operator of, as that operator.
   */
  async recordByEmail(email: string, entry: Omit<AuditRecord, 'accountId' | 'actor' | 'actorKind'>): Promise<void> {
    const actor = email.trim().toLowerCase().slice(0, 254);
    for (const accountId of await this.accountsOf(actor)) await this.record({ ...entry, accountId, actor, actorKind: 'operator' });
  }

  /** One page, newest first; `Next` is the cursor of the page after it, null at the end. */
  async page(query: AuditQuery): Promise<{ entries: StoredAuditEntry[]; next: number | null }> {
    const limit = Math.min(Math.max(1, query.limit), AUDIT_PAGE_MAX);
    const rows = await this.store.audit.list({ ...query, limit: limit + 1 });
    const entries = rows.slice(0, limit);
    return { entries, next: rows.length > limit ? entries[entries.length - 1].id : null };
  }

  /** Every entry of a query, newest first, page by page (the CSV): never the whole log in memory. */
  async *all(query: Omit<AuditQuery, 'limit' | 'before'>, max: number): AsyncGenerator<StoredAuditEntry> {
    let before: number | undefined;
    let given = 0;
    while (given < max) {
      const { entries, next } = await this.page({ ...query, before, limit: Math.min(AUDIT_PAGE_MAX, max - given) });
      for (const entry of entries) yield entry;
      given += entries.length;
      if (next === null) return;
      before = next;
    }
  }

  /** The id of the bot an API key names ('' if none): an entry's target never holds the key. */
  async botIdOfKey(apiKey: string): Promise<string> {
    try {
      return (await this.store.bots.byApiKey(apiKey))?.id ?? '';
    } catch {
      return '';
    }
  }

  /** How long an account's entries are kept (PATCH /admin/accounts/{AccountId} `AuditDays`, 1 to 3650). */
  async keepFor(accountId: string, days: number): Promise<void> {
    await this.store.audit.setAuditDays(accountId, days);
  }

  /** An account's AuditDays, for GET /admin/accounts/{AccountId}; 365 where none was set. */
  async keptFor(accountId: string): Promise<number> {
    return (await this.store.audit.auditDays(accountId)) ?? DEFAULT_AUDIT_DAYS;
  }

  /** Maintenance's chore: entries older than their account's AuditDays go, in batches. */
  async expire(): Promise<void> {
    const now = this.clock.now();
    while ((await this.store.audit.expire(now, EXPIRE_BATCH)) === EXPIRE_BATCH);
  }

  private async accountsOf(email: string): Promise<string[]> {
    try {
      const ids = [...new Set((await this.store.operators.allByEmail(email)).map((o) => o.accountId))];
      return ids.length > 0 ? ids.slice(0, SIGN_IN_ACCOUNTS) : [''];
    } catch (error) {
      this.onError(error);
      return [''];
    }
  }
}
