// Chat turns must not pay for the console's message search (docs/performance.md, "Chat turns after
// the second round of issues 23–27"). Migration 19 indexed every stored message in the turn's own
// transaction through a trigger: FTS5 wrote a segment per commit, about 65 µs of CPU a turn, a
// third of its cost. SQLite now indexes messages in batches after the turns, in a transaction of
// their own (store/console-inbox.ts `catchUp`): FTS5 keeps a batch's terms in memory and writes
// them once, about 6 µs a turn. `message_search_progress` holds the highest message id indexed;
// message ids only grow (AUTOINCREMENT), so every later message is found by `id > last_id`. A
// message deleted before its batch never enters the index; the delete trigger stays for the rest.
// PostgreSQL keeps migration 19's expression index: batching there costs the same per message.
import type { Migration } from './migration.js';

export const messageSearchBatches: Migration = {
  version: 22,
  name: 'message search indexed in batches after the turns (SQLite)',
  sqlite: `DROP TRIGGER message_search_insert;
CREATE TABLE message_search_progress (id INTEGER PRIMARY KEY CHECK (id = 1), last_id INTEGER NOT NULL);
INSERT INTO message_search_progress (id, last_id) SELECT 1, COALESCE(MAX(id), 0) FROM messages;
`,
  postgres: '',
};
