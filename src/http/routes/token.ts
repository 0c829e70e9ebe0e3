// api.md section 1: account and bot tokens.
//
// Guessing keys here is throttled like guessing tokens (auth-throttle.ts), checked before any
// lookup: an unknown account key counts against the client address and that key; an unknown bot
// key or a wrong secret against the address and the pair of account key and bot key (not the bot
// key alone, which anyone could send with an account of their own to lock the bot's owner out).
// Below the allowance the answers are the Xenioo API's own 404s.
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
    {
      schema: {
        tags: ['auth'],
        summary: 'Get an account token, or a bot token with bot key and secret',
        body: TokenRequest,
        response: { 200: Token },
        errors: ['MISSING_FIELD', 'ACCOUNT_NOT_FOUND', 'BOT_NOT_FOUND', 'PLAN_FORBIDDEN', 'RATE_LIMITED'],
      },
    },
    async (request, reply) => {
      const { AccountAPIKey, BotAPIKey, BotAPISecret } = request.body;
      const grant = () => s.grants.grant(AccountAPIKey, BotAPIKey, BotAPISecret);
      const botKeyed = BotAPIKey && BotAPISecret ? `bot-key:${AccountAPIKey}\n${BotAPIKey}` : undefined;
      return app.failedAuth.guard(
        request,
        reply,
        AccountAPIKey && `account-key:${AccountAPIKey}`,
        () => app.failedAuth.guard(request, reply, AccountAPIKey && botKeyed, grant, (error) => error.code === 'BOT_NOT_FOUND'),
        (error) => error.code === 'ACCOUNT_NOT_FOUND',
      );
    },
  );
}
