// Understanding free text (issue 14, understanding.md). Migration 7 is another branch's.
// - bot_versions.nlp_model: the intent model trained when the version was published, so that every
//   node answers with the same model and no turn ever trains;
// - missed_texts: user texts that reached a fallback, owned by their conversation (forgetting the
//   user deletes them with it);
// - bot_ai_settings: a bot's own AI provider, its key encrypted like the bot's secret;
// - usage.ai_tokens: the tokens AI calls used (api.md section 13 counts the calls in api_calls).
import type { Migration } from './migration.js';

const sql = (t: { id: string; big: string }) => `
ALTER TABLE bot_versions ADD COLUMN nlp_model TEXT;
CREATE TABLE missed_texts (
  id ${t.id},
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  text_key TEXT NOT NULL,
  behaviour TEXT NOT NULL,
  interaction TEXT NOT NULL,
  created_at ${t.big} NOT NULL
);
CREATE INDEX missed_texts_bot ON missed_texts(bot_id, text_key);
CREATE INDEX missed_texts_conversation ON missed_texts(conversation_id);
CREATE TABLE bot_ai_settings (
  bot_id TEXT PRIMARY KEY REFERENCES bots(id) ON DELETE CASCADE,
  base_url TEXT NOT NULL,
  model TEXT NOT NULL,
  api_key TEXT NOT NULL,
  updated_at ${t.big} NOT NULL
);
ALTER TABLE usage ADD COLUMN ai_tokens ${t.big} NOT NULL DEFAULT 0;
`;

export const understanding: Migration = {
  version: 8,
  name: 'understanding free text',
  sqlite: sql({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' }),
  postgres: sql({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' }),
};
