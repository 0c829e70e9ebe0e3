// Single sign-on for the console (issue 42, governance.md "Single sign-on"): one OpenID Connect
// provider per account, its client secret sealed under the server key; the e-mail domains that
// sign in through it, each in one account only (the sign-in page routes an e-mail by its domain);
// and the sign-ins in progress (state → PKCE verifier, nonce), kept in the database so that the
// callback may reach any node, taken (deleted) once so a callback cannot be replayed.
import type { Migration } from './migration.js';

const tables = (big: string) => `
CREATE TABLE account_sso (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  issuer TEXT NOT NULL,
  client_id TEXT NOT NULL,
  client_secret TEXT NOT NULL,
  domains TEXT NOT NULL,
  default_role TEXT NOT NULL,
  role_claim TEXT,
  role_map TEXT NOT NULL,
  auto_create INTEGER NOT NULL,
  require_sso INTEGER NOT NULL,
  updated_at ${big} NOT NULL
);
CREATE TABLE account_sso_domains (
  domain TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES account_sso(account_id) ON DELETE CASCADE
);
CREATE INDEX account_sso_domains_account ON account_sso_domains(account_id);
CREATE TABLE sso_sign_ins (
  state_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  expires_at ${big} NOT NULL
);
CREATE INDEX sso_sign_ins_expiry ON sso_sign_ins(expires_at);
`;

export const consoleSso: Migration = {
  version: 27,
  name: 'console single sign-on (OpenID Connect)',
  sqlite: tables('INTEGER'),
  postgres: tables('BIGINT'),
};
