// What console single sign-on needs from storage: an account's provider settings, the account an
// e-mail domain signs in to, the sign-ins in progress, and the operators it finds, creates or
// re-roles. Implemented by store/sso.ts and store/operators.ts on SQLite and PostgreSQL.
import type { AccountRecord } from '../accounts/model.js';
import type { OperatorRecord, OperatorSessionRecord, SsoSettingsRecord, SsoSignInRecord } from './model.js';

export interface SsoStorage {
  sso: {
    /** false when one of the domains belongs to another account's settings */
    put(settings: SsoSettingsRecord): Promise<boolean>;
    get(accountId: string): Promise<SsoSettingsRecord | null>;
    /** true when there were settings */
    remove(accountId: string): Promise<boolean>;
    /** the settings whose Domains hold this (lower-case) domain */
    byDomain(domain: string): Promise<SsoSettingsRecord | null>;
    /** Keeps a sign-in in progress; false (nothing kept) when `max` unexpired ones are waiting. */
    startSignIn(signIn: SsoSignInRecord, now: number, max: number): Promise<boolean>;
    /** The sign-in of this state, deleted in the same statement (a callback is accepted once); null when unknown or expired. */
    takeSignIn(stateHash: string, now: number): Promise<SsoSignInRecord | null>;
  };
  accounts: { byId(id: string): Promise<AccountRecord | null> };
  operators: {
    byEmail(accountId: string, email: string): Promise<OperatorRecord | null>;
    /** false when the account has an operator with this email already */
    insert(op: OperatorRecord): Promise<boolean>;
    setRole(accountId: string, operatorId: string, role: OperatorRecord['role']): Promise<OperatorRecord | null>;
  };
  operatorSessions: { insert(session: OperatorSessionRecord): Promise<void> };
}
