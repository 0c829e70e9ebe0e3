// An account's single sign-on settings, set by the server admin (governance.md "Single sign-on"):
// checked (the issuer's discovery document must load with these credentials), stored with the
// client secret sealed, shown without it. A new Issuer or ClientId needs the secret again: the
// stored one is never sent to another provider.
import { discover, ProviderFailure } from '../integrations/oidc.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { SsoSettingsRecord } from './model.js';
import { DEFAULT_ROLE, type OperatorRole } from './model.js';
import type { SsoStorage } from './sso-port.js';

export interface SsoSettingsInput {
  Issuer: string;
  ClientId: string;
  ClientSecret?: string;
  Domains: string[];
  DefaultRole?: OperatorRole;
  RoleClaim?: string;
  RoleMap?: Record<string, OperatorRole>;
  AutoCreate?: boolean;
  RequireSso?: boolean;
}

/**
 * A single sign-on's outcome, for the audit log (governance.md "Audit log"). The callback is a GET
 * that opens sessions and may make operators, so the route table's hook (http/audit-routes.ts),
 * which records state-changing methods, does not see it: the sign-in service reports it here. The
 * settings routes are ordinary PUT/DELETE routes and are recorded by that table.
 */
export type SsoAuditEntry =
  | { ok: true; accountId: string; email: string; ip: string; created: boolean; role: OperatorRole; roleChanged: boolean }
  | { ok: false; accountId: string | null; email: string | null; ip: string; code: string };
export type SsoAudit = (entry: SsoAuditEntry) => void;

export const ssoSettingsView = (s: SsoSettingsRecord) => ({
  AccountId: s.accountId,
  Issuer: s.issuer,
  ClientId: s.clientId,
  Domains: s.domains,
  DefaultRole: s.defaultRole,
  RoleClaim: s.roleClaim,
  RoleMap: s.roleMap,
  AutoCreate: s.autoCreate,
  RequireSso: s.requireSso,
  UpdatedAt: new Date(s.updatedAt).toISOString(),
});

/** The part of an e-mail after its last @, lower case ('' when there is none). */
export const domainOf = (email: string) => {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
};

export class SsoSettings {
  constructor(
    private readonly deps: {
      store: SsoStorage & { transaction<T>(work: (tx: Pick<SsoStorage, 'sso'>) => Promise<T>): Promise<T> };
      clock: Clock;
      allowPrivateNetwork: boolean;
    },
  ) {}

  async get(accountId: string): Promise<SsoSettingsRecord> {
    await this.account(accountId);
    const settings = await this.deps.store.sso.get(accountId);
    if (!settings) throw new AppError('SSO_NOT_CONFIGURED');
    return settings;
  }

  async put(accountId: string, input: SsoSettingsInput): Promise<SsoSettingsRecord> {
    await this.account(accountId);
    const stored = await this.deps.store.sso.get(accountId);
    const sameProvider = stored !== null && stored.issuer === input.Issuer && stored.clientId === input.ClientId;
    if (input.ClientSecret === undefined && !sameProvider) {
      throw new AppError('MISSING_FIELD', 'ClientSecret is required when the Issuer or ClientId is new: the stored secret is never sent to another provider.', { Field: 'ClientSecret' });
    }
    const settings: SsoSettingsRecord = {
      accountId,
      issuer: input.Issuer,
      clientId: input.ClientId,
      clientSecret: input.ClientSecret ?? stored!.clientSecret,
      domains: [...new Set(input.Domains.map((d) => d.trim().toLowerCase()))],
      defaultRole: input.DefaultRole ?? DEFAULT_ROLE,
      roleClaim: input.RoleClaim ?? null,
      roleMap: input.RoleMap ?? {},
      autoCreate: input.AutoCreate ?? true,
      requireSso: input.RequireSso ?? false,
      updatedAt: this.deps.clock.now(),
    };
    try {
      await discover(settings, { allowPrivateNetwork: this.deps.allowPrivateNetwork });
    } catch (error) {
      if (error instanceof ProviderFailure) throw new AppError('SSO_DISCOVERY_FAILED', `${errorCatalogueMessage} ${error.message}`);
      throw error;
    }
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.sso.put(settings))) throw new AppError('CONFLICT', 'One of the Domains signs in to another account already.', { Field: 'Domains' });
    });
    return settings;
  }

  async remove(accountId: string): Promise<void> {
    await this.account(accountId);
    if (!(await this.deps.store.sso.remove(accountId))) throw new AppError('SSO_NOT_CONFIGURED');
  }

  private async account(accountId: string) {
    const account = await this.deps.store.accounts.byId(accountId);
    if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
    return account;
  }
}

const errorCatalogueMessage = "The issuer's discovery document could not be loaded:";
