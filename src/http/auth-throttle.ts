// Who a request counts against, and the throttle of failed authentication.
//
// Limits are keyed on what was verified, never on raw header text: `Bearer  X`, `bearer X` and
// `Bearer X` are one principal, and junk credentials do not buy fresh buckets. Failed attempts
// (a bad token, bot key, session cookie, password, or account key, bot key and secret on the token
// endpoint) have their own small allowance per client address and per credential; past it the
// attempt is refused before any lookup or password hash, so guessing costs the guesser and not the
// server. On PostgreSQL the nodes share these counts (rate-limit-store.ts says how, and how far
// past the allowance N nodes may go). The client address is the socket's, or the forwarded one
// when COLLOQUY_TRUST_PROXY says which proxies to believe.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.js';
import type { WindowCounters } from './rate-limit-store.js';

/** Failed authentications allowed per client address and minute. */
export const AUTH_FAILURES_PER_ADDRESS = 60;
/** Failed authentications allowed per presented credential (a token, an e-mail) and minute. */
export const AUTH_FAILURES_PER_CREDENTIAL = 10;
const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** set by routes whose principal is not a token (web key + address, operator session) */
    limitKey: string | null;
  }
}

/** The key of api.md's per-principal rate limit for an authenticated (or anonymous) request. */
export function limitKeyOf(request: FastifyRequest): string {
  if (request.limitKey) return request.limitKey;
  const principal = request.principal;
  if (principal?.kind === 'admin') return 'admin';
  if (principal?.kind === 'account') return `account:${principal.account.id}`;
  if (principal?.kind === 'bot') return `bot:${principal.bot.id}`;
  return `address:${request.ip}`;
}

const digest = (credential: string) => crypto.createHash('sha256').update(credential).digest('base64url');

/** Which failures of `authenticate` count against the address and the credential. */
export type FailureTest = (error: AppError) => boolean;
const unauthorized: FailureTest = (error) => error.status === 401;

export class AuthFailureThrottle {
  constructor(
    private readonly enabled: boolean,
    private readonly counters: WindowCounters,
  ) {}

  /**
   * Runs `authenticate` unless the address or the credential is out of failed attempts (then 429
   * RATE_LIMITED with Retry-After, without authenticating). A failure (a 401 unless `failed` says
   * otherwise) counts one for both. A request that presents no credential at all costs nothing to
   * check and is not counted.
   */
  async guard<T>(request: FastifyRequest, reply: FastifyReply, credential: string | undefined, authenticate: () => Promise<T>, failed = unauthorized): Promise<T> {
    if (!this.enabled || !credential) return authenticate();
    const keys: Array<[string, number]> = [
      [`address:${request.ip}`, AUTH_FAILURES_PER_ADDRESS],
      [`credential:${digest(credential)}`, AUTH_FAILURES_PER_CREDENTIAL],
    ];
    for (const [key, max] of keys) {
      const { current, ttl } = this.counters.peek(key, WINDOW_MS);
      if (current >= max) {
        const seconds = Math.max(1, Math.ceil(ttl / 1000));
        reply.header('Retry-After', String(seconds));
        throw new AppError('RATE_LIMITED', `Too many failed authentication attempts; retry in ${seconds} s.`);
      }
    }
    try {
      return await authenticate();
    } catch (error) {
      if (error instanceof AppError && failed(error)) await Promise.all(keys.map(([key, max]) => this.counters.incr(key, WINDOW_MS, max)));
      throw error;
    }
  }
}
