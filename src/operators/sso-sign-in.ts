// Console sign-in through an account's OpenID Connect provider (governance.md "Single sign-on"):
// `start` sends an e-mail of an SSO domain to its provider (code flow, PKCE S256, state, nonce,
// kept in the database for ten minutes, taken once); `finish` checks the callback and the ID
// token (integrations/oidc.ts), then the e-mail (verified, in Domains), finds or creates the
// operator, applies the role the claims map to, and opens a session exactly like a password.
// Every failure is an AppError whose Code the sign-in page explains; none is a 5xx.
import crypto from 'node:crypto';
import { authorizationRequest, exchangeCode, ProviderFailure } from '../integrations/oidc.js';
import { ProviderConfigurations } from '../integrations/oidc-providers.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { OperatorRecord, SsoSettingsRecord } from './model.js';
import type { OperatorRole } from './model.js';
import type { OperatorSessions, SignedIn } from './sessions.js';
import { domainOf, type SsoAudit } from './sso-settings.js';
import type { SsoStorage } from './sso-port.js';

/** How long the provider may take to send the browser back. */
export const SIGN_IN_MINUTES = 10;
/** Sign-ins waiting for their callback, all accounts together: past this, new ones are refused (429). */
export const MAX_WAITING_SIGN_INS = 10_000;
/** An SSO operator's password hash: no password verifies against it (shared/passwords.ts). */
const NO_PASSWORD = 'sso';
const MAX_NAME = 200;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The role the claims map to: the first value of RoleClaim (a string or a list) that RoleMap names, else DefaultRole. */
export function roleFromClaims(claims: Record<string, unknown>, settings: Pick<SsoSettingsRecord, 'roleClaim' | 'roleMap' | 'defaultRole'>): OperatorRole {
  const raw = settings.roleClaim ? claims[settings.roleClaim] : undefined;
  const values = Array.isArray(raw) ? raw : [raw];
  for (const value of values.slice(0, 1000)) {
    if (typeof value === 'string' && Object.hasOwn(settings.roleMap, value)) return settings.roleMap[value];
  }
  return settings.defaultRole;
}

export class SsoSignIn {
  private readonly providers: ProviderConfigurations;

  constructor(
    private readonly deps: {
      store: SsoStorage;
      sessions: OperatorSessions;
      clock: Clock;
      allowPrivateNetwork: boolean;
      /** where the provider sends the browser back (the public URL is known only once the server listens) */
      callbackUrl: () => string;
      audit: SsoAudit;
    },
  ) {
    this.providers = new ProviderConfigurations({ allowPrivateNetwork: deps.allowPrivateNetwork }, () => deps.clock.now());
  }

  /** Whether this e-mail signs in through a provider (what the sign-in page asks before a password). */
  async usesSso(email: string): Promise<boolean> {
    const domain = domainOf(email);
    return domain !== '' && (await this.deps.store.sso.byDomain(domain)) !== null;
  }

  /** The provider's authorization URL for this e-mail. */
  async start(email: string): Promise<string> {
    const settings = await this.deps.store.sso.byDomain(domainOf(email));
    if (!settings) throw new AppError('SSO_NOT_CONFIGURED', 'This e-mail does not sign in with single sign-on; use your password.');
    const config = await this.provider(settings);
    const request = await authorizationRequest(config, this.deps.callbackUrl(), email.trim().toLowerCase());
    const now = this.deps.clock.now();
    const kept = await this.deps.store.sso.startSignIn(
      { stateHash: sha256(request.state), accountId: settings.accountId, verifier: request.verifier, nonce: request.nonce, expiresAt: now + SIGN_IN_MINUTES * 60_000 },
      now,
      MAX_WAITING_SIGN_INS,
    );
    if (!kept) throw new AppError('RATE_LIMITED', 'Too many single sign-ins are in progress; try again in a few minutes.');
    return request.url;
  }

  /** The callback: a session, or the AppError that says why not (recorded for the audit log). */
  async finish(query: URLSearchParams, ip: string): Promise<SignedIn> {
    let accountId: string | null = null;
    let email: string | null = null;
    try {
      const state = query.get('state');
      const signIn = state ? await this.deps.store.sso.takeSignIn(sha256(state), this.deps.clock.now()) : null;
      if (!state || !signIn) throw new AppError('SSO_STATE_INVALID');
      accountId = signIn.accountId;
      if (query.has('error')) throw new AppError('SSO_PROVIDER_REFUSED');
      const settings = await this.deps.store.sso.get(signIn.accountId);
      if (!settings) throw new AppError('SSO_NOT_CONFIGURED');
      const config = await this.provider(settings);
      const claims = await exchangeCode(config, new URL(`${this.deps.callbackUrl()}?${query}`), { state, nonce: signIn.nonce, verifier: signIn.verifier }).catch((error) => {
        if (!(error instanceof ProviderFailure)) throw error;
        this.providers.forget(settings);
        throw new AppError('SSO_TOKEN_INVALID');
      });
      email = verifiedEmail(claims, settings);
      const { operator, created, roleChanged } = await this.operatorFor(settings, email, claims);
      const account = await this.deps.store.accounts.byId(settings.accountId);
      if (!account) throw new AppError('SSO_NOT_CONFIGURED');
      const session = await this.deps.sessions.open(operator, account);
      this.deps.audit({ ok: true, accountId: account.id, email: operator.email, ip, created, role: operator.role, roleChanged });
      return session;
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'INTERNAL';
      this.deps.audit({ ok: false, accountId, email, ip, code });
      throw error;
    }
  }

  private async provider(settings: SsoSettingsRecord) {
    try {
      return await this.providers.configuration(settings);
    } catch (error) {
      throw error instanceof ProviderFailure ? new AppError('SSO_DISCOVERY_FAILED') : error;
    }
  }

  /** The operator with that e-mail in the account (made with AutoCreate), with the role the claims map to now. */
  private async operatorFor(settings: SsoSettingsRecord, email: string, claims: Record<string, unknown>): Promise<{ operator: OperatorRecord; created: boolean; roleChanged: boolean }> {
    const role = roleFromClaims(claims, settings);
    const found = await this.deps.store.operators.byEmail(settings.accountId, email);
    if (found) {
      if (found.role === role) return { operator: found, created: false, roleChanged: false };
      const changed = await this.deps.store.operators.setRole(settings.accountId, found.id, role);
      if (!changed) throw new AppError('SSO_NO_OPERATOR');
      return { operator: changed, created: false, roleChanged: true };
    }
    if (!settings.autoCreate) throw new AppError('SSO_NO_OPERATOR');
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, MAX_NAME) : email;
    const operator: OperatorRecord = { id: crypto.randomUUID(), accountId: settings.accountId, email, name, passwordHash: NO_PASSWORD, role, createdAt: this.deps.clock.now() };
    if (await this.deps.store.operators.insert(operator)) return { operator, created: true, roleChanged: false };
    // made by a sign-in that finished meanwhile
    const now = await this.deps.store.operators.byEmail(settings.accountId, email);
    if (!now) throw new AppError('SSO_NO_OPERATOR');
    return { operator: now, created: false, roleChanged: false };
  }
}

/** The `email` claim, lower case: present, not marked unverified, and in one of the Domains. */
function verifiedEmail(claims: Record<string, unknown>, settings: SsoSettingsRecord): string {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (email === '' || email.length > 254 || !email.includes('@')) throw new AppError('SSO_EMAIL_REFUSED', 'The identity provider sent no e-mail address.');
  if (claims.email_verified !== undefined && claims.email_verified !== true) throw new AppError('SSO_EMAIL_REFUSED', 'The identity provider has not verified this e-mail address.');
  if (!settings.domains.includes(domainOf(email))) throw new AppError('SSO_EMAIL_REFUSED', "This e-mail address is not in one of the account's single sign-on domains.");
  return email;
}
