// The rate_windows table (migration 13): how nodes on one PostgreSQL add up their rate-limit
// counts. One statement reports any number of keys and returns each key's cluster-wide count.
import crypto from 'node:crypto';
import type { Queryable } from './driver.js';
import type { RateWindowTable, WindowReport, WindowTotal } from '../http/rate-window-port.js';

// A row whose window has ended starts again with the report (every SET reads the old row).
const REPORT = `
INSERT INTO rate_windows AS w (key, started_at, window_ms, count)
SELECT r.key, $2::bigint, r.window_ms, r.delta FROM json_to_recordset($1::json) AS r(key text, window_ms bigint, delta bigint)
ON CONFLICT (key) DO UPDATE SET
  started_at = CASE WHEN w.started_at + w.window_ms <= $2::bigint THEN EXCLUDED.started_at ELSE w.started_at END,
  count = CASE WHEN w.started_at + w.window_ms <= $2::bigint THEN EXCLUDED.count ELSE w.count + EXCLUDED.count END,
  window_ms = EXCLUDED.window_ms
RETURNING key, started_at, count`;

/** Keys are stored hashed: a client address or a credential's digest is nobody's business in a table. */
const stored = (key: string) => crypto.createHash('sha256').update(key).digest('base64url');

export function rateWindowRepository(db: Queryable): RateWindowTable {
  return {
    /** Adds each report to its key's window (keys must be distinct); the totals, by key. */
    async report(reports: WindowReport[], now: number): Promise<Map<string, WindowTotal>> {
      const byStored = new Map(reports.map((r) => [stored(r.key), r.key]));
      const rows = JSON.stringify(reports.map((r) => ({ key: stored(r.key), window_ms: r.windowMs, delta: r.delta })));
      const totals = new Map<string, WindowTotal>();
      for (const row of await db.all<{ key: string; started_at: number; count: number }>(REPORT, [rows, now])) {
        totals.set(byStored.get(row.key)!, { startedAt: Number(row.started_at), count: Number(row.count) });
      }
      return totals;
    },
    /** Deletes windows that ended before `now` (they would be restarted anyway). */
    async prune(now: number): Promise<number> {
      return db.run('DELETE FROM rate_windows WHERE started_at + window_ms <= $1', [now]);
    },
  };
}
