// What accounts need from storage: accounts, their keys and monthly usage, and the operators an
// account's admin adds or changes the role of. Declared here and implemented by store/accounts.ts
// and store/operators.ts on SQLite and PostgreSQL.
import type { OperatorRecord } from '../operators/model.js';
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
  operators: {
    /** false when the account has an operator with this email already */
    insert(op: OperatorRecord): Promise<boolean>;
    setRole(accountId: string, operatorId: string, role: OperatorRecord['role']): Promise<OperatorRecord | null>;
    /** Deletes the operator with its sessions; false when the account has none with this id. */
    remove(accountId: string, operatorId: string): Promise<boolean>;
  };
}
