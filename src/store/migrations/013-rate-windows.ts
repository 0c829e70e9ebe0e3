// The counts that several nodes on one PostgreSQL share for their rate limits and failure
// throttles (src/http/rate-limit-store.ts): one row per limited key (a SHA-256 of it, so no client
// address is stored), the window it counts in and how many requests the nodes reported in it.
// Nodes report in steps, not per request; a row whose window has ended is restarted by the next
// report and deleted after a while. SQLite (one node) counts in memory and never uses it.
// (Version 12 is another change's: versions are applied by number, gaps allowed.)
import type { Migration } from './migration.js';

const sql = `
CREATE TABLE rate_windows (
  key TEXT PRIMARY KEY,
  started_at BIGINT NOT NULL,
  window_ms BIGINT NOT NULL,
  count BIGINT NOT NULL
);
`;

export const rateWindows: Migration = {
  version: 13,
  name: 'rate windows shared between nodes',
  sqlite: sql,
  postgres: sql,
};
