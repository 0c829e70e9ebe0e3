// A conversation keeps the size of its stored history (messages and bytes of parts) beside it, so
// that a turn learns whether the history crossed a limit (docs/limits.md) from the row it writes
// anyway, instead of counting the whole history on every turn. Existing rows are counted once here.
import type { Migration } from './migration.js';

const sql = `
ALTER TABLE conversations ADD COLUMN message_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN message_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE conversations SET
  message_count = (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = conversations.id),
  message_bytes = (SELECT COALESCE(SUM(octet_length(m.parts)), 0) FROM messages m WHERE m.conversation_id = conversations.id);
`;

export const historySize: Migration = { version: 9, name: 'history size kept in the conversation row', sqlite: sql, postgres: sql };
