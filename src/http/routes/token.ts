// api.md section 1: account and bot tokens.
import { Type } from 'typebox';
import { sameSecret } from '../../auth/keys.js';
import { AppError } from '../../shared/errors.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';

const TokenRequest = Type.Object(
  {
    AccountAPIKey: Type.Optional(Type.String({ maxLength: 256 })),
    BotAPIKey: Type.Optional(Type.String({ maxLength: 256 })),
    BotAPISecret: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export function tokenRoutes(app: App, s: Services): void {
  app.post(
    '/authorization/integration',
    { schema: { tags: ['auth'], summary: 'Get an account token, or a bot token with bot key and secret', body: TokenRequest } },
    async (request) => {
      const { AccountAPIKey, BotAPIKey, BotAPISecret } = request.body;
      if (!AccountAPIKey) throw new AppError('MISSING_FIELD', 'AccountAPIKey is required.', { Field: 'AccountAPIKey' });
      if (!BotAPIKey !== !BotAPISecret) {
        throw new AppError('MISSING_FIELD', 'Send both BotAPIKey and BotAPISecret, or neither.', { Field: BotAPIKey ? 'BotAPISecret' : 'BotAPIKey' });
      }
      const account = await s.store.accounts.byApiKey(AccountAPIKey);
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
      if (account.plan === 'free') throw new AppError('PLAN_FORBIDDEN');
      if (!BotAPIKey) {
        return { token: await s.tokens.issue({ kind: 'account', accountId: account.id, keyVersion: account.keyVersion }), expires: s.tokens.lifetimeMinutes };
      }
      const bot = await s.store.bots.byApiKey(BotAPIKey);
      if (!bot || bot.accountId !== account.id || !sameSecret(BotAPISecret!, bot.apiSecret)) throw new AppError('BOT_NOT_FOUND');
      const token = await s.tokens.issue({ kind: 'bot', accountId: account.id, keyVersion: account.keyVersion, botId: bot.id, secretVersion: bot.secretVersion });
      return { token, expires: s.tokens.lifetimeMinutes };
    },
  );
}
