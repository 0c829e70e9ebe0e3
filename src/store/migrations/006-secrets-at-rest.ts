// Secrets at rest (hardening): account API keys and share codes become SHA-256 hashes (they are
// only ever compared), bot API secrets and the token signing key are encrypted under the server
// key (they must be read back). Existing rows are converted in the same transaction, so a
// database is never half clear, half not. The columns that now hold hashes are renamed: any SQL
// still writing a clear value there would fail loudly instead of storing it.
import { sha256 } from '../../shared/keys.js';
import { SIGNING_KEY_META } from '../../auth/tokens.js';
import { botSecretContext } from '../bots.js';
import { metaRepository } from '../meta.js';
import type { Migration } from './migration.js';

const sql = `
ALTER TABLE accounts RENAME COLUMN api_key TO api_key_hash;
ALTER TABLE accounts ADD COLUMN key_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE shares RENAME COLUMN code TO code_hash;
`;

export const secretsAtRest: Migration = {
  version: 6,
  name: 'secrets at rest',
  sqlite: sql,
  postgres: sql,
  async data(tx, { secrets }) {
    const meta = metaRepository(tx, secrets);
    // Before writing anything encrypted: this key becomes the database's key (or must be it).
    await meta.ensureKeyCheck();
    for (const row of await tx.all<{ id: string; api_key_hash: string }>('SELECT id, api_key_hash FROM accounts')) {
      await tx.run('UPDATE accounts SET api_key_hash = $2 WHERE id = $1', [row.id, sha256(row.api_key_hash)]);
    }
    for (const row of await tx.all<{ id: string; api_secret: string }>('SELECT id, api_secret FROM bots')) {
      await tx.run('UPDATE bots SET api_secret = $2 WHERE id = $1', [row.id, secrets.encrypt(row.api_secret, botSecretContext(row.id))]);
    }
    for (const row of await tx.all<{ code_hash: string }>('SELECT code_hash FROM shares')) {
      await tx.run('UPDATE shares SET code_hash = $2 WHERE code_hash = $1', [row.code_hash, sha256(row.code_hash)]);
    }
    const signingKey = await meta.get(SIGNING_KEY_META);
    if (signingKey !== null) await meta.setSecret(SIGNING_KEY_META, signingKey);
  },
};
