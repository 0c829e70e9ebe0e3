// The storage the audit log uses (store/audit.ts implements it on SQLite and PostgreSQL): append,
// read newest first, and the one deletion there is, entries past their account's AuditDays.
import type { AuditEntry, AuditQuery, StoredAuditEntry } from './model.js';

export interface AuditStorage {
  audit: {
    append(entry: AuditEntry): Promise<void>;
    list(query: AuditQuery): Promise<StoredAuditEntry[]>;
    /** Deletes up to `batch` entries older than their account's AuditDays at `now`; says how many. */
    expire(now: number, batch: number): Promise<number>;
    /** An account's AuditDays. */
    setAuditDays(accountId: string, days: number): Promise<void>;
    /** An account's AuditDays (365 unless set), null for an account that does not exist. */
    auditDays(accountId: string): Promise<number | null>;
  };
  bots: {
    /** the bot an API key names: entries name bots by id, never by their key */
    byApiKey(apiKey: string): Promise<{ id: string } | null>;
  };
  operators: {
    /** the accounts an e-mail is an operator of: where a failed sign-in with it is recorded */
    allByEmail(email: string): Promise<Array<{ accountId: string }>>;
  };
}
