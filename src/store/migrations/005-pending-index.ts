// Only queued messages need finding by `pending`: a partial index stays tiny and costs a chat
// turn's insert nothing when the message is not queued.
import type { Migration } from './migration.js';

const sql = `
DROP INDEX messages_pending;
CREATE INDEX messages_pending ON messages(conversation_id) WHERE pending = 1;
`;

export const pendingIndex: Migration = { version: 5, name: 'partial index of queued messages', sqlite: sql, postgres: sql };
