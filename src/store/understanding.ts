// Rows of issue 14 (understanding.md): missed texts, and a bot's own AI provider whose API key is
// stored encrypted under the server key, bound to its bot (like the bot's secret, store/bots.ts).
import type { SecretBox } from '../auth/secret-box.js';
import type { Queryable } from './driver.js';
import type { AiSettingsRecord } from '../bots/model.js';
import type { MissedTextGroup } from '../bots/model.js';
import type { NewMissedText } from '../conversations/model.js';

/**
 * Deletes a conversation's missed texts but its newest `$2` (PostgreSQL's turn statement inlines
 * the same, turn-in-one-statement.ts). Through the (conversation_id, id) index: at most
 * missedTextsPerConversation + 1 entries are read.
 */
export const KEEP_NEWEST_OF_CONVERSATION = `DELETE FROM missed_texts WHERE conversation_id = $1 AND id <= (
  SELECT id FROM missed_texts WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`;

export function missedTextRepository(db: Queryable) {
  return {
    /** Adds a turn's rows, then keeps the conversation's newest `keep` (-1: not on this turn); one writer per conversation (the turn's revision check) makes it exact. */
    async add(conversationId: number, rows: NewMissedText[], keep: number): Promise<void> {
      // the trim runs on its turns even when this one missed nothing: a conversation cannot dodge it
      if (rows.length === 0 && keep < 0) return;
      for (const row of rows) {
        await db.run(
          `INSERT INTO missed_texts (bot_id, conversation_id, text, text_key, behaviour, interaction, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [row.botId, conversationId, row.text, row.key, row.behaviour, row.interaction, row.createdAt],
        );
      }
      if (keep >= 0) await db.run(KEEP_NEWEST_OF_CONVERSATION, [conversationId, keep]);
    },
    /** Bots with a missed text written at `since` or later (the maintenance pass caps those). */
    async botsSince(since: number): Promise<string[]> {
      const rows = await db.all<{ bot_id: string }>('SELECT DISTINCT bot_id FROM missed_texts WHERE created_at >= $1', [since]);
      return rows.map((r) => r.bot_id);
    },
    /** Keeps a bot's newest `keep` missed texts; returns how many went. */
    async keepNewest(botId: string, keep: number): Promise<number> {
      // newest by (created_at, id): the order of the (bot_id, created_at) index, SQLite's rowid last
      const edge = await db.get<{ created_at: number; id: number }>('SELECT created_at, id FROM missed_texts WHERE bot_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $2', [botId, keep]);
      if (!edge) return 0;
      return db.run('DELETE FROM missed_texts WHERE bot_id = $1 AND (created_at < $2 OR (created_at = $2 AND id <= $3))', [botId, Number(edge.created_at), Number(edge.id)]);
    },
    /** Deletes up to `batch` missed texts written before `before`; returns how many went. */
    async pruneBefore(before: number, batch: number): Promise<number> {
      return db.run('DELETE FROM missed_texts WHERE id IN (SELECT id FROM missed_texts WHERE created_at < $1 LIMIT $2)', [before, batch]);
    },
    /** Most frequent first (then the most recent); where each group was last missed. */
    async grouped(botId: string, limit: number): Promise<MissedTextGroup[]> {
      const rows = await db.all<{ text_key: string; n: number; last_at: number; behaviour: string; interaction: string }>(
        `SELECT g.text_key, g.n, g.last_at,
           (SELECT m.behaviour FROM missed_texts m WHERE m.bot_id = $1 AND m.text_key = g.text_key ORDER BY m.id DESC LIMIT 1) AS behaviour,
           (SELECT m.interaction FROM missed_texts m WHERE m.bot_id = $1 AND m.text_key = g.text_key ORDER BY m.id DESC LIMIT 1) AS interaction
         FROM (SELECT text_key, COUNT(*) AS n, MAX(created_at) AS last_at FROM missed_texts WHERE bot_id = $1 GROUP BY text_key) g
         ORDER BY g.n DESC, g.last_at DESC, g.text_key
         LIMIT $2`,
        [botId, limit],
      );
      return rows.map((r) => ({ key: r.text_key, count: Number(r.n), lastAt: Number(r.last_at), behaviour: r.behaviour, interaction: r.interaction }));
    },
  };
}

export const aiKeyContext = (botId: string) => `bot_ai_settings.api_key:${botId}`;

export function aiSettingsRepository(db: Queryable, secrets: SecretBox) {
  return {
    async get(botId: string): Promise<AiSettingsRecord | null> {
      const row = await db.get<{ base_url: string; model: string; api_key: string; embedding_model: string | null; updated_at: number }>(
        'SELECT base_url, model, api_key, embedding_model, updated_at FROM bot_ai_settings WHERE bot_id = $1',
        [botId],
      );
      if (!row) return null;
      return {
        botId,
        baseUrl: row.base_url,
        model: row.model,
        apiKey: secrets.decrypt(row.api_key, aiKeyContext(botId)),
        embeddingModel: row.embedding_model ?? null,
        updatedAt: Number(row.updated_at),
      };
    },
    async put(settings: AiSettingsRecord): Promise<void> {
      const sealed = secrets.encrypt(settings.apiKey, aiKeyContext(settings.botId));
      await db.run(
        `INSERT INTO bot_ai_settings (bot_id, base_url, model, api_key, updated_at, embedding_model) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (bot_id) DO UPDATE SET base_url = $2, model = $3, api_key = $4, updated_at = $5, embedding_model = $6`,
        [settings.botId, settings.baseUrl, settings.model, sealed, settings.updatedAt, settings.embeddingModel],
      );
    },
    /** true when there was one */
    async remove(botId: string): Promise<boolean> {
      return (await db.run('DELETE FROM bot_ai_settings WHERE bot_id = $1', [botId])) > 0;
    },
  };
}
