// Vectors of passages and of intent examples (migration 016): float32 blobs (BLOB on SQLite, bytea
// on PostgreSQL). One vector per passage, of the model named beside it: writing one of another
// model replaces it. Similarity is computed by the caller over what `vectors` returns (the
// knowledge/vector-index.ts cache); the database keeps them so that every node and every restart
// has them without asking the provider again.
import type { Queryable } from './driver.js';
import type { FoundPassage, PassageToEmbed, StoredVector, VectorStamp } from '../knowledge/model.js';

const READY_CHUNKS = `FROM knowledge_chunks c JOIN knowledge_sources s ON s.id = c.source_id WHERE c.bot_id = $1 AND s.status = 'ready'`;

export function knowledgeVectorRepository(db: Queryable) {
  return {
    /**
     * Passages of the bot's ready sources with no vector of `model` yet, after passage `afterId`,
     * in id order. The caller walks on from the last id it got: starting from 0 each time made
     * every batch skip all the passages embedded before it (90,000 passages: hours on PostgreSQL).
     */
    async missing(botId: string, model: string, limit: number, afterId = 0): Promise<PassageToEmbed[]> {
      const rows = await db.all<{ id: number; heading: string; text: string }>(
        `SELECT c.id, c.heading, c.text ${READY_CHUNKS} AND c.id > $4
         AND NOT EXISTS (SELECT 1 FROM knowledge_vectors v WHERE v.chunk_id = c.id AND v.model = $2)
         ORDER BY c.id LIMIT $3`,
        [botId, model, limit, afterId],
      );
      return rows.map((r) => ({ chunkId: Number(r.id), heading: r.heading, text: r.text }));
    },

    /** Writes vectors (run in a transaction); a passage deleted meanwhile, or another bot's, is skipped. */
    async put(botId: string, model: string, vectors: Array<{ chunkId: number; vector: Buffer }>): Promise<void> {
      if (db.dialect === 'postgres') {
        // one statement per batch: a round trip per passage made embedding 4,000 passages take 38 s
        if (vectors.length === 0) return;
        await db.run(
          `INSERT INTO knowledge_vectors (chunk_id, bot_id, model, vector)
           SELECT c.id, c.bot_id, $2, decode(e->>'v', 'base64') FROM json_array_elements($3::json) e
           JOIN knowledge_chunks c ON c.id = (e->>'c')::bigint AND c.bot_id = $1
           ON CONFLICT (chunk_id) DO UPDATE SET model = excluded.model, vector = excluded.vector`,
          [botId, model, JSON.stringify(vectors.map((v) => ({ c: v.chunkId, v: v.vector.toString('base64') })))],
        );
        return;
      }
      for (const { chunkId, vector } of vectors) {
        await db.run(
          `INSERT INTO knowledge_vectors (chunk_id, bot_id, model, vector)
           SELECT id, bot_id, $2, $3 FROM knowledge_chunks WHERE id = $1 AND bot_id = $4
           ON CONFLICT (chunk_id) DO UPDATE SET model = excluded.model, vector = excluded.vector`,
          [chunkId, model, vector, botId],
        );
      }
    },

    async stamp(botId: string, model: string): Promise<VectorStamp> {
      const row = await db.get<{ n: number; top: number | null; total: number | null }>(
        'SELECT COUNT(*) AS n, MAX(chunk_id) AS top, SUM(chunk_id) AS total FROM knowledge_vectors WHERE bot_id = $1 AND model = $2',
        [botId, model],
      );
      return { count: Number(row?.n ?? 0), top: Number(row?.top ?? 0), sum: Number(row?.total ?? 0) };
    },

    /** Every vector of the bot's passages of `model` (the cache loads them once per change). */
    async vectors(botId: string, model: string): Promise<StoredVector[]> {
      const rows = await db.all<{ chunk_id: number; vector: Uint8Array }>('SELECT chunk_id, vector FROM knowledge_vectors WHERE bot_id = $1 AND model = $2 ORDER BY chunk_id', [botId, model]);
      return rows.map((r) => ({ chunkId: Number(r.chunk_id), vector: r.vector }));
    },

    /** How many passages of each source have a vector of `model`. */
    async embeddedPerSource(botId: string, model: string): Promise<Map<string, number>> {
      const rows = await db.all<{ source_id: string; n: number }>(
        `SELECT c.source_id, COUNT(*) AS n FROM knowledge_vectors v JOIN knowledge_chunks c ON c.id = v.chunk_id
         WHERE v.bot_id = $1 AND v.model = $2 GROUP BY c.source_id`,
        [botId, model],
      );
      return new Map(rows.map((r) => [r.source_id, Number(r.n)]));
    },

    /** The bot's passages of ready sources among `ids` (score 0: the caller ranks them). */
    async passagesByIds(botId: string, ids: readonly number[]): Promise<FoundPassage[]> {
      if (ids.length === 0) return [];
      const list = ids.map((_, i) => `$${i + 2}`).join(', ');
      const rows = await db.all<{ id: number; source_id: string; name: string; url: string | null; heading: string; text: string }>(
        `SELECT c.id, c.source_id, s.name, s.url, c.heading, c.text ${READY_CHUNKS} AND c.id IN (${list})`,
        [botId, ...ids],
      );
      return rows.map((r) => ({ chunkId: Number(r.id), sourceId: r.source_id, sourceName: r.name, sourceUrl: r.url, heading: r.heading, text: r.text, score: 0 }));
    },

    /** A version's example vectors for `model`, or null. */
    async intentVectors(versionId: number, model: string): Promise<{ labels: string[]; vectors: Uint8Array } | null> {
      const row = await db.get<{ labels: string; vectors: Uint8Array }>('SELECT labels, vectors FROM intent_vectors WHERE version_id = $1 AND model = $2', [versionId, model]);
      return row ? { labels: JSON.parse(row.labels) as string[], vectors: row.vectors } : null;
    },

    /** Stores them unless they are there (two nodes may embed the same version at once: same answer). */
    async putIntentVectors(versionId: number, model: string, labels: string[], vectors: Buffer, now: number): Promise<void> {
      await db.run(
        `INSERT INTO intent_vectors (version_id, model, labels, vectors, created_at)
         SELECT id, $2, $3, $4, $5 FROM bot_versions WHERE id = $1
         ON CONFLICT (version_id, model) DO NOTHING`,
        [versionId, model, JSON.stringify(labels), vectors, now],
      );
    },
  };
}
