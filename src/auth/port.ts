// What authentication needs from storage: the account and bot a credential names. Declared here
// and implemented by store/accounts.ts and store/bots.ts; the store's principalGeneration says
// when a cached principal may be out of date (principal-cache.ts).
import type { AccountRecord } from '../accounts/model.js';
import type { BotRecord } from '../bots/model.js';

export interface CredentialStorage {
  accounts: {
    byId(id: string): Promise<AccountRecord | null>;
    byApiKey(apiKey: string): Promise<AccountRecord | null>;
  };
  bots: {
    byApiKey(apiKey: string): Promise<BotRecord | null>;
    withAccount(botId: string): Promise<{ bot: BotRecord; account: AccountRecord } | null>;
  };
  /** moves on whenever this node wrote a bot or an account row */
  principalGeneration(): number;
}
