// Turns an Authorization header into a principal, or the 401/403 of api.md "Credentials".
import { AppError } from '../shared/errors.js';
import type { CredentialStorage } from './port.js';
import { looksLikeJwt, type TokenService } from './tokens.js';
import { PrincipalCache } from './principal-cache.js';
import type { AccountRecord } from '../accounts/model.js';
import type { BotRecord } from '../bots/model.js';

export type Principal = { kind: 'admin' } | { kind: 'account'; account: AccountRecord } | { kind: 'bot'; account: AccountRecord; bot: BotRecord };

/**
 * What a route accepts: `chat` = bot token, or the bot API key when the bot has simplified auth;
 * `apihook` = bot token or bot API key whatever the setting (first-generation clients).
 */
export type Access = 'admin' | 'account' | 'bot' | 'chat' | 'apihook' | 'accountOrBot';

export function bearerOf(header: string | undefined): string | null {
  if (header === undefined || header.trim() === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError('TOKEN_INVALID', 'The Authorization header must be "Bearer <token>".');
  return match[1];
}

export class Authenticator {
  private readonly principals: PrincipalCache<Principal>;

  constructor(
    private readonly store: CredentialStorage,
    private readonly tokens: TokenService,
    private readonly isAdminToken: (token: string) => boolean,
  ) {
    this.principals = new PrincipalCache(() => store.principalGeneration());
  }

  async authenticate(header: string | undefined, access: Access): Promise<Principal> {
    const principal = await this.identify(header, access);
    this.authorize(principal, access);
    return principal;
  }

  /** Who the credential proves the caller is: 401 when it proves nothing. */
  async identify(header: string | undefined, access: Access): Promise<Principal> {
    const token = bearerOf(header);
    if (token === null) throw new AppError('TOKEN_MISSING');
    // A token this server signed is not the admin token: no need to hash it against that first
    // (every chat request would).
    if (!this.tokens.verifiedBefore(token) && this.isAdminToken(token)) return { kind: 'admin' };
    return looksLikeJwt(token) ? await this.fromJwt(token) : await this.fromBotKey(token, access);
  }

  /**
   * Whether that principal may use a route of this access: 403. Separate from identify so that
   * the HTTP layer can count the request against the principal's rate limit in between.
   */
  authorize(principal: Principal, access: Access): void {
    if (principal.kind === 'admin' && access !== 'admin') throw new AppError('TOKEN_SCOPE', 'The admin token only opens /admin routes.');
    if (!allows(access, principal)) {
      throw new AppError('TOKEN_SCOPE', `This route needs ${describe(access)}.`);
    }
    // The plan is read on every request (the account is loaded anyway): moving an account to
    // `free` closes the integration API at once, not only to tokens issued afterwards.
    if (principal.kind !== 'admin' && principal.account.plan === 'free') throw new AppError('PLAN_FORBIDDEN');
  }

  private async fromJwt(token: string): Promise<Principal> {
    // verified on every request (expiry included); only what the claims point at is cached
    const claims = await this.tokens.verify(token);
    return this.principals.through(token, () => this.principalOf(claims));
  }

  private async principalOf(claims: Awaited<ReturnType<TokenService['verify']>>): Promise<Principal> {
    if (claims.kind === 'account') {
      const account = await this.store.accounts.byId(claims.accountId);
      if (!account) throw new AppError('TOKEN_INVALID', 'The account of this token no longer exists.');
      checkKeyVersion(account, claims.keyVersion);
      return { kind: 'account', account };
    }
    const found = await this.store.bots.withAccount(claims.botId);
    if (!found || found.account.id !== claims.accountId) throw new AppError('TOKEN_INVALID', 'The bot of this token no longer exists.');
    const { bot, account } = found;
    checkKeyVersion(account, claims.keyVersion);
    if (bot.secretVersion !== claims.secretVersion) throw new AppError('TOKEN_INVALID', "The bot's secret was rotated after this token was issued.");
    return { kind: 'bot', account, bot };
  }

  private async fromBotKey(token: string, access: Access): Promise<Principal> {
    if (access !== 'chat' && access !== 'apihook') throw new AppError('TOKEN_INVALID');
    const bot = await this.store.bots.byApiKey(token);
    if (!bot) throw new AppError('TOKEN_INVALID');
    if (access === 'chat' && bot.settings.simplifiedAuth !== true) {
      throw new AppError('TOKEN_INVALID', 'A bot API key is accepted as bearer only when the bot has simplified auth on.');
    }
    const account = await this.store.accounts.byId(bot.accountId);
    if (!account) throw new AppError('TOKEN_INVALID');
    return { kind: 'bot', account, bot };
  }
}

/** Every token was issued with the account key: rotating the key revokes them all, bot tokens included. */
function checkKeyVersion(account: AccountRecord, keyVersion: number): void {
  if (account.keyVersion !== keyVersion) throw new AppError('TOKEN_INVALID', "The account's key was rotated after this token was issued.");
}

function allows(access: Access, principal: Principal): boolean {
  switch (access) {
    case 'admin':
      return principal.kind === 'admin';
    case 'account':
      return principal.kind === 'account';
    case 'accountOrBot':
      return principal.kind === 'account' || principal.kind === 'bot';
    default:
      return principal.kind === 'bot';
  }
}

function describe(access: Access): string {
  if (access === 'admin') return 'the admin token';
  if (access === 'account') return 'an account token';
  if (access === 'accountOrBot') return 'an account or bot token';
  return 'a bot token';
}
