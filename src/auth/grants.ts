// api.md section 1: what an account key (and a bot key with its secret) is exchanged for. The
// checks run in the documented order: fields, account key, plan, bot key and secret.
import { AppError } from '../shared/errors.js';
import type { CredentialStorage } from './port.js';
import { sameSecret } from '../shared/keys.js';
import type { TokenService } from './tokens.js';

export interface Grant {
  token: string;
  /** minutes */
  expires: number;
}

export class TokenGrants {
  constructor(
    private readonly store: Pick<CredentialStorage, 'accounts' | 'bots'>,
    private readonly tokens: TokenService,
  ) {}

  async grant(accountKey: string | undefined, botKey: string | undefined, botSecret: string | undefined): Promise<Grant> {
    if (!accountKey) throw new AppError('MISSING_FIELD', 'AccountAPIKey is required.', { Field: 'AccountAPIKey' });
    if (!botKey !== !botSecret) {
      throw new AppError('MISSING_FIELD', 'Send both BotAPIKey and BotAPISecret, or neither.', { Field: botKey ? 'BotAPISecret' : 'BotAPIKey' });
    }
    const account = await this.store.accounts.byApiKey(accountKey);
    if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
    if (account.plan === 'free') throw new AppError('PLAN_FORBIDDEN');
    const expires = this.tokens.lifetimeMinutes;
    if (!botKey) return { token: await this.tokens.issue({ kind: 'account', accountId: account.id, keyVersion: account.keyVersion }), expires };
    const bot = await this.store.bots.byApiKey(botKey);
    // one answer for an unknown bot, another account's bot and a wrong secret
    if (!bot || bot.accountId !== account.id || !sameSecret(botSecret!, bot.apiSecret)) throw new AppError('BOT_NOT_FOUND');
    const token = await this.tokens.issue({ kind: 'bot', accountId: account.id, keyVersion: account.keyVersion, botId: bot.id, secretVersion: bot.secretVersion });
    return { token, expires };
  }
}
