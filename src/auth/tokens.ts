// Account and bot tokens: HS256 JWTs signed with a key kept in the database (encrypted under the
// server key), so they verify on every node and after restarts. A bot token carries the bot's
// secret version, and both kinds the account's key version: rotating the secret or the account
// key bumps it and every older token stops working at once.
import crypto from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../shared/errors.js';

export type TokenClaims = { kind: 'account'; accountId: string; keyVersion: number } | { kind: 'bot'; accountId: string; keyVersion: number; botId: string; secretVersion: number };

export const SIGNING_KEY_META = 'token_signing_key';
export const newSigningKey = () => crypto.randomBytes(32).toString('base64');

/** Verified tokens kept in memory: integrators send the same token for an hour, and a signature
 *  check through WebCrypto costs more than the rest of a chat turn's authentication. */
const VERIFIED_CACHE_SIZE = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();

  constructor(
    signingKeyBase64: string,
    private readonly minutes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = new Uint8Array(Buffer.from(signingKeyBase64, 'base64'));
  }

  get lifetimeMinutes(): number {
    return this.minutes;
  }

  async issue(claims: TokenClaims): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    const payload =
      claims.kind === 'account' ? { k: 'a', acc: claims.accountId, kv: claims.keyVersion } : { k: 'b', acc: claims.accountId, kv: claims.keyVersion, bot: claims.botId, sv: claims.secretVersion };
    return (
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + this.minutes * 60)
        // a random id makes two tokens issued in the same second distinct
        .setJti(crypto.randomBytes(8).toString('base64url'))
        .sign(this.key)
    );
  }

  /** Whether `token` is one this service signed and has verified already (expired or not). */
  verifiedBefore(token: string): boolean {
    return this.verified.has(token);
  }

  async verify(token: string): Promise<TokenClaims> {
    const cached = this.verified.get(token);
    if (cached) {
      if (this.now() < cached.expiresAt) return cached.claims;
      this.verified.delete(token);
      throw new AppError('TOKEN_EXPIRED');
    }
    const { claims, expiresAt } = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims, expiresAt });
    return claims;
  }

  private async verifySignature(token: string): Promise<{ claims: TokenClaims; expiresAt: number }> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.now()),
        // Without exp a token would never expire: a leaked one would work forever.
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
      throw new AppError('TOKEN_INVALID');
    }
    const expiresAt = Number(payload.exp) * 1000;
    // Tokens from before key rotation existed carry no key version: they were issued at version 1.
    const keyVersion = payload.kv === undefined ? 1 : payload.kv;
    if (typeof payload.acc !== 'string' || typeof keyVersion !== 'number') throw new AppError('TOKEN_INVALID');
    if (payload.k === 'a') return { claims: { kind: 'account', accountId: payload.acc, keyVersion }, expiresAt };
    if (payload.k === 'b' && typeof payload.bot === 'string' && typeof payload.sv === 'number') {
      return { claims: { kind: 'bot', accountId: payload.acc, keyVersion, botId: payload.bot, secretVersion: payload.sv }, expiresAt };
    }
    throw new AppError('TOKEN_INVALID');
  }
}

export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
