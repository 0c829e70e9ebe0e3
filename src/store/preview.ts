// Preview conversations (docs/designer.md "Preview"): they belong to a bot's preview twin, a row of
// `bots` with `preview_of` set (migration 14) that no read of bots returns, so the console's list,
// analytics, missed texts and webhooks, which all go by a real bot's id, never meet them. The twin
// goes with its bot (ON DELETE CASCADE), and its conversations with it.
import type { SecretBox } from '../auth/secret-box.js';
import { newBotCredentials } from '../shared/keys.js';
import type { BotRecord } from '../bots/model.js';
import { botSecretContext } from './bots.js';
import type { Queryable } from './driver.js';

export function previewRepository(db: Queryable, secrets: SecretBox) {
  return {
    /** Creates the twin of `bot` as `twinId` unless it exists. Its keys are random and never handed out. */
    async ensureTwin(bot: BotRecord, twinId: string, now: number): Promise<void> {
      const keys = newBotCredentials();
      await db.run(
        `INSERT INTO bots (id, account_id, api_key, api_secret, secret_version, web_key, name, description, avatar,
           settings, draft, version, live_version_id, role, master_bot_id, created_at, updated_at, preview_of)
         VALUES ($1, $2, $3, $4, 1, $5, $6, '', '', '{}', '{}', 0, NULL, 'standard', NULL, $7, $7, $8)
         ON CONFLICT (id) DO NOTHING`,
        [twinId, bot.accountId, keys.apiKey, secrets.encrypt(keys.apiSecret, botSecretContext(twinId)), keys.webKey, `${bot.name} (preview)`, now, bot.id],
      );
    },
    /**
     * Keeps the `max` most recently active conversations of the twin and deletes the others, in
     * the transaction that just inserted one. On PostgreSQL the twin's row is locked first, so two
     * new preview conversations of one bot are counted one after the other (SQLite has one writer).
     */
    async keepNewest(twinId: string, max: number): Promise<number> {
      if (db.dialect === 'postgres') await db.get('SELECT id FROM bots WHERE id = $1 FOR UPDATE', [twinId]);
      const all = db.dialect === 'postgres' ? 'ALL' : '-1';
      return db.run(
        `DELETE FROM conversations WHERE id IN (
           SELECT id FROM conversations WHERE bot_id = $1 ORDER BY updated_at DESC, id DESC LIMIT ${all} OFFSET $2)`,
        [twinId, max],
      );
    },
    async count(twinId: string): Promise<number> {
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM conversations WHERE bot_id = $1', [twinId]);
      return Number(row?.n ?? 0);
    },
    /** Deletes preview conversations idle since before `before` (the maintenance pass); returns how many. */
    async removeIdle(before: number): Promise<number> {
      return db.run('DELETE FROM conversations WHERE updated_at < $1 AND bot_id IN (SELECT id FROM bots WHERE preview_of IS NOT NULL)', [before]);
    },
  };
}
