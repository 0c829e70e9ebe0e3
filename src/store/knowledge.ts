// A bot's knowledge sources and passages (knowledge.md): added within the bot's limits, indexed
// (passages swapped in whole, in both databases' text search), listed, read, removed and copied
// for a full clone. The full-text search over them is knowledge-search.ts.
import type { Queryable } from './driver.js';
import { knowledgeFaqRepository } from './knowledge-faq.js';
import { knowledgeSearch, pgConfigOf } from './knowledge-search.js';
import type { KnowledgeLimits, LimitHit, NewPassage, SourceKind, SourceRecord, SourceStatus, StoredPassage } from '../knowledge/model.js';

interface SourceRow {
  id: string;
  bot_id: string;
  name: string;
  kind: string;
  url: string | null;
  status: string;
  error: string | null;
  chunks: number;
  bytes: number;
  generation: number;
  created_at: number;
  updated_at: number;
}

/**
 * Rows per INSERT or DELETE of passages: one statement per batch, not per passage, and the event
 * loop is given back between batches (issue 35: 90,000 passages written or deleted in one go held
 * every other request for seconds on SQLite, whose driver is synchronous).
 */
const BATCH = 250;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const COLUMNS = 'id, bot_id, name, kind, url, status, error, chunks, bytes, generation, created_at, updated_at';

const toSource = (r: SourceRow): SourceRecord => ({
  id: r.id,
  botId: r.bot_id,
  name: r.name,
  kind: r.kind as SourceKind,
  url: r.url,
  status: r.status as SourceStatus,
  error: r.error,
  chunks: Number(r.chunks),
  bytes: Number(r.bytes),
  generation: Number(r.generation),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export function knowledgeRepository(db: Queryable) {
  /** PostgreSQL: concurrent adds to one bot queue on its row, so the limits hold under any race (SQLite has one writer). */
  const lockBot = async (botId: string) => {
    if (db.dialect === 'postgres') await db.get('SELECT id FROM bots WHERE id = $1 FOR UPDATE', [botId]);
  };
  /** How many sources and bytes a bot holds, `exceptId` (the one being replaced) aside. */
  const usage = async (botId: string, exceptId: string): Promise<{ sources: number; bytes: number }> => {
    const row = await db.get<{ n: number; total: number | null }>('SELECT COUNT(*) AS n, SUM(bytes) AS total FROM knowledge_sources WHERE bot_id = $1 AND id <> $2', [botId, exceptId]);
    return { sources: Number(row?.n ?? 0), bytes: Number(row?.total ?? 0) };
  };
  const limitHit = async (botId: string, exceptId: string, bytes: number, limits: KnowledgeLimits, adding: boolean): Promise<LimitHit> => {
    const used = await usage(botId, exceptId);
    if (adding && used.sources + 1 > limits.sources) return 'sources';
    return used.bytes + bytes > limits.bytes ? 'bytes' : null;
  };

  /** A source's passages, a batch at a time. */
  const deletePassages = async (sourceId: string): Promise<void> => {
    while ((await db.run('DELETE FROM knowledge_chunks WHERE id IN (SELECT id FROM knowledge_chunks WHERE source_id = $1 LIMIT $2)', [sourceId, BATCH])) === BATCH) await yieldToLoop();
  };

  /**
   * Swaps a source's passages in and marks it ready (run in a transaction), unless a newer
   * generation replaced it meanwhile or it was deleted: then nothing is written and false returned.
   */
  const swapIn = async (id: string, generation: number, passages: NewPassage[], language: string, now: number): Promise<boolean> => {
    const marked = await db.run(`UPDATE knowledge_sources SET status = 'ready', error = NULL, chunks = $3, updated_at = $4 WHERE id = $1 AND generation = $2`, [id, generation, passages.length, now]);
    if (marked === 0) return false;
    const owner = await db.get<{ bot_id: string }>('SELECT bot_id FROM knowledge_sources WHERE id = $1', [id]);
    await deletePassages(id);
    for (let start = 0; start < passages.length; start += BATCH) {
      if (start > 0) await yieldToLoop();
      const batch = JSON.stringify(passages.slice(start, start + BATCH).map((p, i) => ({ p: start + i, h: p.heading, t: p.text })));
      if (db.dialect === 'postgres') {
        await db.run(
          `INSERT INTO knowledge_chunks (source_id, bot_id, position, heading, text, tsv)
           SELECT $1, $2, (e->>'p')::int, e->>'h', e->>'t',
             setweight(to_tsvector($3::regconfig, e->>'h'), 'A') || setweight(to_tsvector($3::regconfig, e->>'t'), 'B')
           FROM json_array_elements($4::json) e`,
          [id, owner!.bot_id, pgConfigOf(language), batch],
        );
      } else {
        await db.run(
          `INSERT INTO knowledge_chunks (source_id, bot_id, position, heading, text)
           SELECT $1, $2, json_extract(value, '$.p'), json_extract(value, '$.h'), json_extract(value, '$.t') FROM json_each($3)`,
          [id, owner!.bot_id, batch],
        );
      }
    }
    return true;
  };

  return {
    swapIn,
    /** Read outside the adding transaction (a Url source's room before its fetch: issue 35); the transaction checks again. */
    usage,

    /** Adds an `indexing` source unless the bot would go over a limit (run in a transaction). */
    async insert(source: SourceRecord, limits: KnowledgeLimits): Promise<LimitHit> {
      await lockBot(source.botId);
      const hit = await limitHit(source.botId, source.id, source.bytes, limits, true);
      if (hit !== null) return hit;
      await db.run(`INSERT INTO knowledge_sources (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, [
        source.id,
        source.botId,
        source.name,
        source.kind,
        source.url,
        source.status,
        source.error,
        source.chunks,
        source.bytes,
        source.generation,
        source.createdAt,
        source.updatedAt,
      ]);
      return null;
    },

    /**
     * New content for a source (run in a transaction): its passages are gone at once, it is
     * `indexing` under the next generation. null when it does not exist, else the limit it would
     * break or the new generation.
     */
    async restart(
      botId: string,
      id: string,
      change: { name: string; kind: SourceKind; url: string | null; bytes: number; now: number },
      limits: KnowledgeLimits,
    ): Promise<{ hit: LimitHit; generation: number } | null> {
      await lockBot(botId);
      const row = await db.get<{ generation: number }>('SELECT generation FROM knowledge_sources WHERE id = $1 AND bot_id = $2', [id, botId]);
      if (!row) return null;
      const hit = await limitHit(botId, id, change.bytes, limits, false);
      if (hit !== null) return { hit, generation: Number(row.generation) };
      const generation = Number(row.generation) + 1;
      await deletePassages(id);
      await db.run(`UPDATE knowledge_sources SET name = $2, kind = $3, url = $7, status = 'indexing', error = NULL, chunks = 0, bytes = $4, generation = $5, updated_at = $6 WHERE id = $1`, [
        id,
        change.name,
        change.kind,
        change.bytes,
        generation,
        change.now,
        change.url,
      ]);
      return { hit: null, generation };
    },

    /** A source whose indexing failed keeps no passages and says why (unless newer content came). */
    async fail(id: string, generation: number, error: string, now: number): Promise<void> {
      await db.run(`UPDATE knowledge_sources SET status = 'failed', error = $3, chunks = 0, updated_at = $4 WHERE id = $1 AND generation = $2`, [id, generation, error, now]);
    },

    /** Only while it is still indexing that very generation (an add refused after its row was written). */
    async removeIndexing(id: string, generation: number): Promise<void> {
      await db.run(`DELETE FROM knowledge_sources WHERE id = $1 AND generation = $2 AND status = 'indexing'`, [id, generation]);
    },

    async get(botId: string, id: string): Promise<SourceRecord | null> {
      const row = await db.get<SourceRow>(`SELECT ${COLUMNS} FROM knowledge_sources WHERE id = $1 AND bot_id = $2`, [id, botId]);
      return row ? toSource(row) : null;
    },

    /** Newest first. */
    async list(botId: string): Promise<SourceRecord[]> {
      const rows = await db.all<SourceRow>(`SELECT ${COLUMNS} FROM knowledge_sources WHERE bot_id = $1 ORDER BY updated_at DESC, id`, [botId]);
      return rows.map(toSource);
    },

    /**
     * In document order, `limit` at a time after `position` (-1 first), while the source is at
     * `generation`: a source replaced while it is read ends its reading (an empty page).
     */
    async passagePage(sourceId: string, generation: number, position: number, limit: number): Promise<Array<StoredPassage & { position: number }>> {
      const rows = await db.all<{ id: number; heading: string; text: string; position: number }>(
        `SELECT c.id, c.heading, c.text, c.position FROM knowledge_chunks c JOIN knowledge_sources s ON s.id = c.source_id
         WHERE c.source_id = $1 AND s.generation = $2 AND c.position > $3 ORDER BY c.position LIMIT $4`,
        [sourceId, generation, position, limit],
      );
      return rows.map((r) => ({ chunkId: Number(r.id), heading: r.heading, text: r.text, position: Number(r.position) }));
    },

    /**
     * true when there was one; its passages go with it, a batch at a time. The source is first
     * taken out of searches (status `indexing`, a new generation, so that an indexing still
     * running for it writes nothing), then its passages go, then the row.
     */
    async remove(botId: string, id: string): Promise<boolean> {
      const hidden = await db.run(`UPDATE knowledge_sources SET status = 'indexing', generation = generation + 1 WHERE id = $1 AND bot_id = $2`, [id, botId]);
      if (hidden === 0) return false;
      await deletePassages(id);
      await db.run('DELETE FROM knowledge_sources WHERE id = $1 AND bot_id = $2', [id, botId]);
      return true;
    },

    /** The bot's passages but those of one source (whose passages are being replaced), under the bot's lock. */
    async passageCount(botId: string, exceptSourceId: string): Promise<number> {
      await lockBot(botId);
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM knowledge_chunks WHERE bot_id = $1 AND source_id <> $2', [botId, exceptSourceId]);
      return Number(row?.n ?? 0);
    },

    ...knowledgeSearch(db),

    /** A full clone's copy of every ready source, passages (and an FAQ's pairs) included, indexed in the clone's language. */
    async copyAll(fromBotId: string, toBotId: string, newId: () => string, language: string, now: number): Promise<void> {
      const sources = await db.all<SourceRow>(`SELECT ${COLUMNS} FROM knowledge_sources WHERE bot_id = $1 AND status = 'ready' ORDER BY created_at, id`, [fromBotId]);
      for (const source of sources) {
        const copy: SourceRecord = { ...toSource(source), id: newId(), botId: toBotId, status: 'indexing', generation: 0, createdAt: now, updatedAt: now };
        await db.run(`INSERT INTO knowledge_sources (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, [
          copy.id,
          copy.botId,
          copy.name,
          copy.kind,
          copy.url,
          copy.status,
          copy.error,
          copy.chunks,
          copy.bytes,
          copy.generation,
          copy.createdAt,
          copy.updatedAt,
        ]);
        const passages = await db.all<{ heading: string; text: string }>('SELECT heading, text FROM knowledge_chunks WHERE source_id = $1 ORDER BY position', [source.id]);
        await swapIn(copy.id, 0, passages, language, now);
        await knowledgeFaqRepository(db).copy(source.id, copy.id);
      }
    },
  };
}
