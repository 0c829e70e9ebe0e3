// Console single sign-on (migration 027): an account's OpenID Connect settings with the client
// secret sealed under the server key (bound to the account, like a bot's AI key), the domains that
// route an e-mail to it, and the sign-ins in progress (their PKCE verifier sealed too).
import type { SecretBox } from '../auth/secret-box.js';
import type { SsoSettingsRecord, SsoSignInRecord } from '../operators/model.js';
import { DEFAULT_ROLE, isOperatorRole, type OperatorRole } from '../operators/model.js';
import type { Queryable } from './driver.js';

interface SettingsRow {
  account_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string;
  default_role: string;
  role_claim: string | null;
  role_map: string;
  auto_create: number;
  require_sso: number;
  updated_at: number;
}

const secretContext = (accountId: string) => `account_sso.client_secret:${accountId}`;
const verifierContext = (stateHash: string) => `sso_sign_ins.verifier:${stateHash}`;
const roleOf = (value: string): OperatorRole => (isOperatorRole(value) ? value : DEFAULT_ROLE);

function roleMapOf(text: string): Record<string, OperatorRole> {
  const map: Record<string, OperatorRole> = {};
  for (const [claim, role] of Object.entries(JSON.parse(text) as Record<string, string>)) if (isOperatorRole(role)) map[claim] = role;
  return map;
}

export function ssoRepository(db: Queryable, secrets: SecretBox) {
  const toSettings = (r: SettingsRow): SsoSettingsRecord => ({
    accountId: r.account_id,
    issuer: r.issuer,
    clientId: r.client_id,
    clientSecret: secrets.decrypt(r.client_secret, secretContext(r.account_id)),
    domains: JSON.parse(r.domains) as string[],
    defaultRole: roleOf(r.default_role),
    roleClaim: r.role_claim,
    roleMap: roleMapOf(r.role_map),
    autoCreate: Number(r.auto_create) === 1,
    requireSso: Number(r.require_sso) === 1,
    updatedAt: Number(r.updated_at),
  });

  return {
    /** Run inside a transaction: false when a domain is another account's (the caller rolls back). */
    async put(s: SsoSettingsRecord): Promise<boolean> {
      await db.run(
        `INSERT INTO account_sso (account_id, issuer, client_id, client_secret, domains, default_role, role_claim, role_map, auto_create, require_sso, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (account_id) DO UPDATE SET issuer = $2, client_id = $3, client_secret = $4, domains = $5, default_role = $6,
           role_claim = $7, role_map = $8, auto_create = $9, require_sso = $10, updated_at = $11`,
        [
          s.accountId,
          s.issuer,
          s.clientId,
          secrets.encrypt(s.clientSecret, secretContext(s.accountId)),
          JSON.stringify(s.domains),
          s.defaultRole,
          s.roleClaim,
          JSON.stringify(s.roleMap),
          s.autoCreate ? 1 : 0,
          s.requireSso ? 1 : 0,
          s.updatedAt,
        ],
      );
      await db.run('DELETE FROM account_sso_domains WHERE account_id = $1', [s.accountId]);
      for (const domain of s.domains) {
        const added = await db.run('INSERT INTO account_sso_domains (domain, account_id) VALUES ($1, $2) ON CONFLICT (domain) DO NOTHING', [domain, s.accountId]);
        if (added !== 1) return false;
      }
      return true;
    },
    async get(accountId: string): Promise<SsoSettingsRecord | null> {
      const row = await db.get<SettingsRow>('SELECT * FROM account_sso WHERE account_id = $1', [accountId]);
      return row ? toSettings(row) : null;
    },
    async remove(accountId: string): Promise<boolean> {
      return (await db.run('DELETE FROM account_sso WHERE account_id = $1', [accountId])) > 0;
    },
    async byDomain(domain: string): Promise<SsoSettingsRecord | null> {
      const row = await db.get<SettingsRow>('SELECT s.* FROM account_sso_domains d JOIN account_sso s ON s.account_id = d.account_id WHERE d.domain = $1', [domain]);
      return row ? toSettings(row) : null;
    },
    async startSignIn(signIn: SsoSignInRecord, now: number, max: number): Promise<boolean> {
      await db.run('DELETE FROM sso_sign_ins WHERE expires_at <= $1', [now]);
      const waiting = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM sso_sign_ins', []);
      if (Number(waiting?.n ?? 0) >= max) return false;
      await db.run('INSERT INTO sso_sign_ins (state_hash, account_id, verifier, nonce, expires_at) VALUES ($1, $2, $3, $4, $5)', [
        signIn.stateHash,
        signIn.accountId,
        secrets.encrypt(signIn.verifier, verifierContext(signIn.stateHash)),
        signIn.nonce,
        signIn.expiresAt,
      ]);
      return true;
    },
    async takeSignIn(stateHash: string, now: number): Promise<SsoSignInRecord | null> {
      const row = await db.get<{ account_id: string; verifier: string; nonce: string; expires_at: number }>(
        'DELETE FROM sso_sign_ins WHERE state_hash = $1 RETURNING account_id, verifier, nonce, expires_at',
        [stateHash],
      );
      if (!row || Number(row.expires_at) <= now) return null;
      return { stateHash, accountId: row.account_id, verifier: secrets.decrypt(row.verifier, verifierContext(stateHash)), nonce: row.nonce, expiresAt: Number(row.expires_at) };
    },
  };
}
