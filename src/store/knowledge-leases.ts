// Leases on the background indexing of knowledge sources (migration 017, knowledge/indexing-lease.ts):
// the node indexing a source keeps pushing `claimed_until` forward; a source still `indexing` whose
// lease ran out (and that was not added or replaced within the last lease either, so a claim not
// yet taken is not mistaken for a lost one) was left by a node that stopped, and is marked failed.
import type { Queryable } from './driver.js';

export function knowledgeLeaseRepository(db: Queryable) {
  return {
    /** Holds the indexing of this generation of the source until `until` (no effect once it left `indexing`). */
    async claim(id: string, generation: number, until: number): Promise<void> {
      await db.run(`UPDATE knowledge_sources SET claimed_until = $3 WHERE id = $1 AND generation = $2 AND status = 'indexing'`, [id, generation, until]);
    },
    /**
     * Marks failed at `now`, with `error`, the sources indexing with no live lease: claimed until
     * before `claimedBefore` and last changed before `changedBefore`. Returns how many.
     */
    async failAbandoned(now: number, claimedBefore: number, changedBefore: number, error: string): Promise<number> {
      return db.run(
        `UPDATE knowledge_sources SET status = 'failed', error = $4, chunks = 0, updated_at = $1
         WHERE status = 'indexing' AND claimed_until < $2 AND updated_at < $3`,
        [now, claimedBefore, changedBefore, error],
      );
    },
  };
}
