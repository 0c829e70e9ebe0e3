// A bot's secrets (agents.md "Secrets"): the value sealed with the server key, bound to its bot and
// name so a ciphertext cannot be moved to another row; hosts as JSON text. Deleted with the bot.
import type { SecretBox } from '../auth/secret-box.js';
import type { SecretListing, SecretValue } from '../secrets/model.js';
import type { Queryable } from './driver.js';

interface Row {
  name: string;
  value: string;
  hosts: string;
  updated_at: number;
}

const contextOf = (botId: string, name: string) => `secret:${botId}:${name}`;

export function secretRepository(db: Queryable, secrets: SecretBox) {
  return {
    async put(botId: string, secret: SecretValue, now: number): Promise<void> {
      await db.run(
        `INSERT INTO bot_secrets (bot_id, name, value, hosts, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (bot_id, name) DO UPDATE SET value = $3, hosts = $4, updated_at = $5`,
        [botId, secret.name, secrets.encrypt(secret.value, contextOf(botId, secret.name)), JSON.stringify(secret.hosts), now],
      );
    },
    async list(botId: string): Promise<SecretListing[]> {
      const rows = await db.all<Omit<Row, 'value'>>('SELECT name, hosts, updated_at FROM bot_secrets WHERE bot_id = $1 ORDER BY name', [botId]);
      return rows.map((r) => ({ name: r.name, hosts: JSON.parse(r.hosts) as string[], updatedAt: Number(r.updated_at) }));
    },
    async count(botId: string): Promise<number> {
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM bot_secrets WHERE bot_id = $1', [botId]);
      return Number(row?.n ?? 0);
    },
    async values(botId: string, names: readonly string[]): Promise<SecretValue[]> {
      if (names.length === 0) return [];
      const rows = await db.all<Row>('SELECT name, value, hosts, updated_at FROM bot_secrets WHERE bot_id = $1', [botId]);
      const wanted = new Set(names);
      return rows.filter((r) => wanted.has(r.name)).map((r) => ({ name: r.name, value: secrets.decrypt(r.value, contextOf(botId, r.name)), hosts: JSON.parse(r.hosts) as string[] }));
    },
    async remove(botId: string, name: string): Promise<boolean> {
      return (await db.run('DELETE FROM bot_secrets WHERE bot_id = $1 AND name = $2', [botId, name])) > 0;
    },
  };
}
