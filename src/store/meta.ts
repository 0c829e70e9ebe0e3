import type { Queryable } from './driver.js';

/** Server-wide settings kept in the database so every node and every restart sees the same ones. */
export function metaRepository(db: Queryable) {
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
  };
}
