// Operator console sign-in: e-mail + password (scrypt, shared/passwords.ts) → a random session token
// that the browser keeps in an HttpOnly cookie. Only the token's sha256 is stored, sessions last
// 12 hours from sign-in on the injectable clock, and logging out deletes the row. An account that
// requires single sign-on refuses passwords (SSO_REQUIRED); its sign-ins open sessions here too.
import crypto from 'node:crypto';
import { hashPassword, verifyPassword } from '../shared/passwords.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { SessionStorage } from './port.js';
import type { OperatorRecord } from './model.js';
import type { AccountRecord } from '../accounts/model.js';

export const SESSION_HOURS = 12;
const SESSION_MS = SESSION_HOURS * 3_600_000;

/** Who is behind a console request. */
export interface OperatorContext {
  operator: OperatorRecord;
  account: AccountRecord;
}

export interface SignedIn extends OperatorContext {
  token: string;
  expiresAt: number;
}

export const operatorView = (ctx: OperatorContext) => ({
  OperatorId: ctx.operator.id,
  Email: ctx.operator.email,
  Name: ctx.operator.name,
  AccountId: ctx.account.id,
  AccountName: ctx.account.name,
  /** what the console may show (roles.ts): the server refuses the rest whatever the page shows */
  Role: ctx.operator.role,
});

/**
 * Password checks per sign-in, whatever the e-mail: unknown, or an operator of one account or of
 * several. They run side by side (Node's thread pool has four threads), so neither the time taken
 * nor the work done says in how many accounts, if any, an e-mail exists. An e-mail that is an
 * operator of more accounts than this signs in with AccountId.
 */
export const LOGIN_CHECKS = 4;

const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export class OperatorSessions {
  /** compared against when the e-mail is unknown, so both failures take as long */
  private readonly decoy: Promise<string>;

  constructor(
    private readonly store: SessionStorage,
    private readonly clock: Clock,
    private readonly verify: (password: string, stored: string) => Promise<boolean> = verifyPassword,
  ) {
    this.decoy = hashPassword(crypto.randomBytes(16).toString('hex'));
    this.decoy.catch(() => undefined);
  }

  /** Wrong password and unknown e-mail are the same 401: the answer does not say which e-mails exist. */
  async login(email: string, password: string, accountId?: string): Promise<SignedIn> {
    const candidates = (await this.store.operators.allByEmail(email.trim().toLowerCase())).filter((op) => accountId === undefined || op.accountId === accountId);
    // The same e-mail may sign in to several accounts; without AccountId the first whose password matches wins.
    const checked = candidates.slice(0, LOGIN_CHECKS);
    const decoy = await this.decoy;
    const hashes = [...checked.map((c) => c.passwordHash), ...Array<string>(LOGIN_CHECKS - checked.length).fill(decoy)];
    const matches = await Promise.all(hashes.map((hash) => this.verify(password, hash)));
    const operator: OperatorRecord | null = checked.find((_candidate, i) => matches[i]) ?? null;
    const account = operator ? await this.store.accounts.byId(operator.accountId) : null;
    if (!operator || !account) throw new AppError('INVALID_CREDENTIALS');
    // Only once the password matched: the answer says nothing about e-mails that do not sign in.
    if ((await this.store.sso.get(account.id))?.requireSso) throw new AppError('SSO_REQUIRED');
    return this.open(operator, account);
  }

  /** A new session for an operator who proved who they are (password, or the account's provider: sso-sign-in.ts). */
  async open(operator: OperatorRecord, account: AccountRecord): Promise<SignedIn> {
    const now = this.clock.now();
    await this.store.operatorSessions.removeExpired(now);
    const token = crypto.randomBytes(32).toString('base64url');
    const expiresAt = now + SESSION_MS;
    await this.store.operatorSessions.insert({ tokenHash: sha256(token), operatorId: operator.id, expiresAt, createdAt: now });
    return { operator, account, token, expiresAt };
  }

  /** The operator behind a session token: 401 TOKEN_MISSING without one, TOKEN_INVALID when unknown or expired. */
  async authenticate(token: string | undefined): Promise<OperatorContext> {
    if (!token) throw new AppError('TOKEN_MISSING', 'Sign in to the console first.');
    const hash = sha256(token);
    const session = await this.store.operatorSessions.byTokenHash(hash);
    if (!session) throw new AppError('TOKEN_INVALID', 'The console session is not valid; sign in again.');
    if (session.expiresAt <= this.clock.now()) {
      await this.store.operatorSessions.remove(hash);
      throw new AppError('TOKEN_INVALID', 'The console session has expired; sign in again.');
    }
    const operator = await this.store.operators.byId(session.operatorId);
    const account = operator ? await this.store.accounts.byId(operator.accountId) : null;
    if (!operator || !account) throw new AppError('TOKEN_INVALID', 'The console session is not valid; sign in again.');
    return { operator, account };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.store.operatorSessions.remove(sha256(token));
  }
}
