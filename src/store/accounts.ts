// Accounts. The API key is stored only as its SHA-256 (a copy of the database hands out no
// working key); `key_version` counts rotations, and tokens carry the version they were issued at.
import { sha256 } from '../shared/keys.js';
import type { Queryable } from './driver.js';
import type { AccountRecord, Plan, UsageAdded, UsageRecord } from '../accounts/model.js';

export interface AccountRow {
  id: string;
  name: string;
  plan: string;
  packages: string;
  key_version: number;
  created_at: number;
}

/** Only what a record needs: never the key hash. */
export const ACCOUNT_COLUMNS = 'id, name, plan, packages, key_version, created_at';

export const toAccount = (row: AccountRow): AccountRecord => ({
  id: row.id,
  name: row.name,
  plan: row.plan as Plan,
  packages: JSON.parse(row.packages),
  keyVersion: Number(row.key_version),
  createdAt: Number(row.created_at),
});

/** `onWrite` is told after every write to an account row (cached principals carry the account). */
export function accountRepository(db: Queryable, onWrite: () => void = () => undefined) {
  return {
    /** `apiKey` is the new key in clear: only its hash is written. */
    async insert(account: AccountRecord & { apiKey: string }): Promise<void> {
      await db.run('INSERT INTO accounts (id, name, plan, packages, api_key_hash, key_version, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        account.id,
        account.name,
        account.plan,
        JSON.stringify(account.packages),
        sha256(account.apiKey),
        account.keyVersion,
        account.createdAt,
      ]);
    },
    async update(account: AccountRecord): Promise<void> {
      await db.run('UPDATE accounts SET name = $2, plan = $3, packages = $4 WHERE id = $1', [account.id, account.name, account.plan, JSON.stringify(account.packages)]);
      onWrite();
    },
    /** Replaces the key and moves the key version on (older tokens stop working); false: no such account. */
    async rotateKey(id: string, apiKey: string): Promise<boolean> {
      const rotated = (await db.run('UPDATE accounts SET api_key_hash = $2, key_version = key_version + 1 WHERE id = $1', [id, sha256(apiKey)])) === 1;
      onWrite();
      return rotated;
    },
    async byId(id: string): Promise<AccountRecord | null> {
      const row = await db.get<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [id]);
      return row ? toAccount(row) : null;
    },
    async byApiKey(apiKey: string): Promise<AccountRecord | null> {
      const row = await db.get<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE api_key_hash = $1`, [sha256(apiKey)]);
      return row ? toAccount(row) : null;
    },
    async count(): Promise<number> {
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM accounts');
      return Number(row?.n ?? 0);
    },
    async usage(accountId: string, month: string): Promise<UsageRecord> {
      const row = await db.get<{ messages: number; replies: number; notifications: number; api_calls: number; ai_tokens: number }>(
        'SELECT messages, replies, notifications, api_calls, ai_tokens FROM usage WHERE account_id = $1 AND month = $2',
        [accountId, month],
      );
      return {
        month,
        messages: Number(row?.messages ?? 0),
        replies: Number(row?.replies ?? 0),
        notifications: Number(row?.notifications ?? 0),
        apiCalls: Number(row?.api_calls ?? 0),
        aiTokens: Number(row?.ai_tokens ?? 0),
      };
    },
    /** Adds to this month's counters (api.md section 13); called inside the turn's transaction. */
    async addUsage(accountId: string, month: string, add: UsageAdded): Promise<void> {
      await db.run(
        `INSERT INTO usage (account_id, month, messages, replies, notifications, api_calls, ai_tokens) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, month) DO UPDATE SET messages = usage.messages + $3, replies = usage.replies + $4,
           notifications = usage.notifications + $5, api_calls = usage.api_calls + $6, ai_tokens = usage.ai_tokens + $7`,
        [accountId, month, add.messages, add.replies, add.notifications, add.apiCalls, add.aiTokens ?? 0],
      );
    },
  };
}

export type AccountRepository = ReturnType<typeof accountRepository>;
