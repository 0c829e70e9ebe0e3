import { SecretKeyMismatch, type SecretBox } from '../auth/secret-box.js';
import type { Queryable } from './driver.js';

/** meta key of the server key's check value (see SecretBox.check) */
export const KEY_CHECK_META = 'secret_key_check';

/** Secret meta values are bound to their key: one cannot be moved to stand in for another. */
const metaContext = (key: string) => `meta:${key}`;

/** Server-wide settings kept in the database so every node and every restart sees the same ones. */
export function metaRepository(db: Queryable, secrets: SecretBox) {
  return {
    async get(key: string): Promise<string | null> {
      const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]);
      return row?.value ?? null;
    },
    /** Stores `value` unless the key already has one; returns the value that won (safe across nodes). */
    async getOrInit(key: string, value: string): Promise<string> {
      await db.run('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
      return (await this.get(key))!;
    },
    async set(key: string, value: string): Promise<void> {
      await db.run('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2', [key, value]);
    },
    /** A value stored encrypted under the server key (the token signing key), in clear; null if unset. */
    async getSecret(key: string): Promise<string | null> {
      const stored = await this.get(key);
      return stored === null ? null : secrets.decrypt(stored, metaContext(key));
    },
    /** getOrInit for a secret: stored encrypted, returned in clear (the winner's, across nodes). */
    async getOrInitSecret(key: string, value: string): Promise<string> {
      return secrets.decrypt(await this.getOrInit(key, secrets.encrypt(value, metaContext(key))), metaContext(key));
    },
    async setSecret(key: string, value: string): Promise<void> {
      await this.set(key, secrets.encrypt(value, metaContext(key)));
    },
    /**
     * The first node to get here records its key's check value; every later one must have the
     * same key, or it would write secrets nobody else can read and read none of theirs.
     */
    async ensureKeyCheck(): Promise<void> {
      if ((await this.getOrInit(KEY_CHECK_META, secrets.check)) !== secrets.check) {
        throw new SecretKeyMismatch('the secret key does not match this database: set COLLOQUY_SECRET_KEY to the value the other nodes use');
      }
    },
  };
}
