// api.md section 1: account and bot tokens.
import { Type } from 'typebox';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { Token } from '../wire-schemas.js';

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
    { schema: { tags: ['auth'], summary: 'Get an account token, or a bot token with bot key and secret', body: TokenRequest, response: { 200: Token }, errors: ['MISSING_FIELD', 'ACCOUNT_NOT_FOUND', 'BOT_NOT_FOUND', 'PLAN_FORBIDDEN'] } },
    async (request) => {
      const { AccountAPIKey, BotAPIKey, BotAPISecret } = request.body;
      return s.grants.grant(AccountAPIKey, BotAPIKey, BotAPISecret);
    },
  );
}
