// An FAQ source's pairs as written (migration 026, knowledge/faq-pairs.ts), in order. They are
// written in the transaction that adds or replaces the source, so the pairs and the source's
// content never disagree; a source replaced by another kind keeps none.
import type { Queryable } from './driver.js';
import type { FaqPair } from '../knowledge/model.js';

/** Pairs per INSERT: one statement per batch (an FAQ holds at most 1,000). */
const BATCH = 250;

export function knowledgeFaqRepository(db: Queryable) {
  return {
    /** The source's pairs become `pairs` (none: not an FAQ). */
    async replace(sourceId: string, pairs: readonly FaqPair[]): Promise<void> {
      await db.run('DELETE FROM knowledge_faq_pairs WHERE source_id = $1', [sourceId]);
      for (let start = 0; start < pairs.length; start += BATCH) {
        const batch = JSON.stringify(pairs.slice(start, start + BATCH).map((p, i) => ({ p: start + i, q: p.Question, a: p.Answer })));
        const rows =
          db.dialect === 'postgres'
            ? `SELECT $1, (e->>'p')::int, e->>'q', e->>'a' FROM json_array_elements($2::json) e`
            : `SELECT $1, json_extract(value, '$.p'), json_extract(value, '$.q'), json_extract(value, '$.a') FROM json_each($2)`;
        await db.run(`INSERT INTO knowledge_faq_pairs (source_id, position, question, answer) ${rows}`, [sourceId, batch]);
      }
    },

    /** In order, `limit` at a time after `position` (-1 first). */
    async page(sourceId: string, position: number, limit: number): Promise<Array<FaqPair & { position: number }>> {
      const rows = await db.all<{ position: number; question: string; answer: string }>(
        'SELECT position, question, answer FROM knowledge_faq_pairs WHERE source_id = $1 AND position > $2 ORDER BY position LIMIT $3',
        [sourceId, position, limit],
      );
      return rows.map((r) => ({ Question: r.question, Answer: r.answer, position: Number(r.position) }));
    },

    /** A full clone's copy of a source's pairs. */
    async copy(fromSourceId: string, toSourceId: string): Promise<void> {
      await db.run('INSERT INTO knowledge_faq_pairs (source_id, position, question, answer) SELECT $1, position, question, answer FROM knowledge_faq_pairs WHERE source_id = $2', [
        toSourceId,
        fromSourceId,
      ]);
    },
  };
}
