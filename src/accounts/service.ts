// Accounts (api.md "Administration"), shared by the admin API and the CLI; the operators an admin
// adds are operators/admin-operators.ts.
import { newAccountId, newAccountKey } from '../shared/keys.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { AccountRecord, Plan, UsageRecord } from './model.js';
import type { AccountStorage } from './port.js';

export const PLANS: Plan[] = ['free', 'standard'];
export const PACKAGES = ['master-bot'];

export interface AccountView {
  AccountId: string;
  AccountAPIKey?: string;
  Name: string;
  Plan: Plan;
  Packages: string[];
}

/** An account just made: the only moment (with a rotation) its key exists in clear. */
export type NewAccount = AccountRecord & { apiKey: string };

/** The key is stored only as a hash, so it appears when the account is created, never afterwards. */
export const accountView = (a: AccountRecord & { apiKey?: string }): AccountView => ({
  AccountId: a.id,
  ...(a.apiKey ? { AccountAPIKey: a.apiKey } : {}),
  Name: a.name,
  Plan: a.plan,
  Packages: a.packages,
});

export const usageView = (u: UsageRecord) => ({
  Month: u.month,
  Messages: u.messages,
  Replies: u.replies,
  Notifications: u.notifications,
  ApiCalls: u.apiCalls,
  AiTokens: u.aiTokens,
});

export class AccountService {
  constructor(
    private readonly store: AccountStorage,
    private readonly clock: Clock,
  ) {}

  async create(input: { name: string; plan: Plan; packages?: string[] }): Promise<NewAccount> {
    const account: NewAccount = {
      id: newAccountId(),
      name: input.name,
      plan: input.plan,
      packages: [...new Set(input.packages ?? [])],
      apiKey: newAccountKey(),
      keyVersion: 1,
      createdAt: this.clock.now(),
    };
    await this.store.accounts.insert(account);
    return account;
  }

  /** How many accounts exist (the demo is seeded only on an empty database). */
  count(): Promise<number> {
    return this.store.accounts.count();
  }

  /** An account by its id or its API key (the command line takes either). */
  async byIdOrKey(ref: string): Promise<AccountRecord | null> {
    return (await this.store.accounts.byId(ref)) ?? (await this.store.accounts.byApiKey(ref));
  }

  async get(id: string): Promise<AccountRecord> {
    const account = await this.store.accounts.byId(id);
    if (!account) throw new AppError('ACCOUNT_NOT_FOUND', 'No account has this id.');
    return account;
  }

  async update(id: string, patch: { name?: string; plan?: Plan; packages?: string[] }): Promise<AccountRecord> {
    const account = await this.get(id);
    const next: AccountRecord = {
      ...account,
      name: patch.name ?? account.name,
      plan: patch.plan ?? account.plan,
      packages: patch.packages ? [...new Set(patch.packages)] : account.packages,
    };
    await this.store.accounts.update(next);
    return next;
  }

  /** A new account API key; the old one and every token issued with it stop working at once. */
  async rotateKey(id: string): Promise<{ AccountAPIKey: string }> {
    const apiKey = newAccountKey();
    if (!(await this.store.accounts.rotateKey(id, apiKey))) throw new AppError('ACCOUNT_NOT_FOUND', 'No account has this id.');
    return { AccountAPIKey: apiKey };
  }

  usage(accountId: string): Promise<UsageRecord> {
    return this.store.accounts.usage(accountId, this.clock.iso().slice(0, 7));
  }

  /** One provider call made outside a turn (POST /knowledge/ask), counted like an `ai` step's. */
  countProviderCall(accountId: string, aiTokens: number): Promise<void> {
    return this.store.accounts.addUsage(accountId, this.clock.iso().slice(0, 7), { messages: 0, replies: 0, notifications: 0, apiCalls: 1, aiTokens });
  }

  /** Tokens of embedding calls (indexing, a question's vector): AiTokens, no ApiCalls (knowledge.md "Answers"). */
  countTokens(accountId: string, aiTokens: number): Promise<void> {
    return this.store.accounts.addUsage(accountId, this.clock.iso().slice(0, 7), { messages: 0, replies: 0, notifications: 0, apiCalls: 0, aiTokens });
  }
}
