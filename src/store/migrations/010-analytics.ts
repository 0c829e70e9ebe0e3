// Per-bot analytics (docs/analytics.md) read a bot's own rows by time, so each count is an index
// range, never a scan of every bot's rows:
// - conversations.handed_over_at: when the conversation first reached "requested" or "operator"
//   (control states 1 and 2), set by the same UPDATE that saves the state; no history of control
//   changes existed to count hand-overs per day from;
// - indexes by bot and time for conversations (created, last active, handed over), missed texts,
//   and by conversation and time for messages (a bot's messages are found through its conversations).
import type { Migration } from './migration.js';

const sql = `
ALTER TABLE conversations ADD COLUMN handed_over_at BIGINT;
UPDATE conversations SET handed_over_at = updated_at WHERE control_state IN (1, 2);
CREATE INDEX conversations_bot_created ON conversations(bot_id, created_at);
CREATE INDEX conversations_bot_updated ON conversations(bot_id, updated_at);
CREATE INDEX conversations_bot_handed_over ON conversations(bot_id, handed_over_at);
CREATE INDEX messages_conversation_created ON messages(conversation_id, created_at);
CREATE INDEX missed_texts_bot_created ON missed_texts(bot_id, created_at);
`;

export const analytics: Migration = { version: 10, name: 'analytics: hand-over time and indexes by time', sqlite: sql, postgres: sql };
