// What accounts need from storage: accounts, their keys and monthly usage. Declared here and
// implemented by store/accounts.ts on SQLite and PostgreSQL.
import type { AccountRecord, UsageAdded, UsageRecord } from './model.js';

export interface AccountStorage {
  accounts: {
    insert(account: AccountRecord & { apiKey: string }): Promise<void>;
    update(account: AccountRecord): Promise<void>;
    /** false when no account has this id */
    rotateKey(id: string, apiKey: string): Promise<boolean>;
    byId(id: string): Promise<AccountRecord | null>;
    byApiKey(apiKey: string): Promise<AccountRecord | null>;
    count(): Promise<number>;
    usage(accountId: string, month: string): Promise<UsageRecord>;
    addUsage(accountId: string, month: string, add: UsageAdded): Promise<void>;
  };
}
