// Operator presence (migration 023): which operators have a console live stream open on any node.
// operators/presence.ts decides when to write; this knows only the rows.
import type { Queryable } from './driver.js';

export function presenceRepository(db: Queryable) {
  return {
    /** This node holds a stream of the operator until `expiresAt` (unless told again). */
    async beat(operatorId: string, nodeId: string, expiresAt: number, now: number): Promise<void> {
      // A deleted operator writes nothing (the SELECT finds no row); rows of nodes that died
      // without closing are dropped as the operator comes back, so they do not pile up.
      await db.run('DELETE FROM operator_presence WHERE operator_id = $1 AND expires_at <= $2', [operatorId, now]);
      await db.run(
        `INSERT INTO operator_presence (operator_id, node_id, expires_at) SELECT id, $2, $3 FROM operators WHERE id = $1
         ON CONFLICT (operator_id, node_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
        [operatorId, nodeId, expiresAt],
      );
    },
    async leave(operatorId: string, nodeId: string): Promise<void> {
      await db.run('DELETE FROM operator_presence WHERE operator_id = $1 AND node_id = $2', [operatorId, nodeId]);
    },
    /** Those of `operatorIds` with an unexpired row on any node. */
    async online(operatorIds: string[], now: number): Promise<Set<string>> {
      if (operatorIds.length === 0) return new Set();
      const ids = operatorIds.map((_id, i) => `$${i + 2}`).join(', ');
      const rows = await db.all<{ operator_id: string }>(`SELECT DISTINCT operator_id FROM operator_presence WHERE expires_at > $1 AND operator_id IN (${ids})`, [now, ...operatorIds]);
      return new Set(rows.map((r) => r.operator_id));
    },
  };
}
