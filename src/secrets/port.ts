// The storage the secrets use: one row per bot and name, the value sealed with the server key
// (implemented by store/secrets.ts on SQLite and PostgreSQL).
import type { SecretListing, SecretValue } from './model.js';

export interface SecretStorage {
  secrets: {
    /** inserts or replaces the bot's secret of that name */
    put(botId: string, secret: SecretValue, now: number): Promise<void>;
    list(botId: string): Promise<SecretListing[]>;
    count(botId: string): Promise<number>;
    /** the named secrets that exist, decrypted (names the bot does not have are left out) */
    values(botId: string, names: readonly string[]): Promise<SecretValue[]>;
    /** false when the bot had no secret of that name */
    remove(botId: string, name: string): Promise<boolean>;
  };
}
