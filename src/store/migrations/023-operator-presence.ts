// Who has the console open, shared by every node on one database (issue 27, round robin of a
// team): a row per operator per node while that node holds a console live stream of theirs. The
// streams' heartbeat pushes `expires_at` on, closing the last one deletes the row, and a node that
// died without closing leaves rows that simply expire. "Online" = any unexpired row.
import type { Migration } from './migration.js';

const table = (big: string) => `
CREATE TABLE operator_presence (
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  node_id TEXT NOT NULL,
  expires_at ${big} NOT NULL,
  PRIMARY KEY (operator_id, node_id)
);
`;

export const operatorPresence: Migration = {
  version: 23,
  name: 'operator presence shared by the nodes',
  sqlite: table('INTEGER'),
  postgres: table('BIGINT'),
};
