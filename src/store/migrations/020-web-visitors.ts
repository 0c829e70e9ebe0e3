// Issue 27, the widget's side of "what support teams expect": what a web visitor's page says about
// them (web_contacts: the page they are on, their browser and language, and the widget's visitor
// id that links their conversations on this browser), and an operator's picture (avatar_url),
// shown to visitors beside the operator's name. Migrations 016-019 are other branches'.
// The row cascades with its conversation, so forgetting a conversation forgets its context too.
import type { Migration } from './migration.js';

const tables = (t: { big: string }) => `
CREATE TABLE web_contacts (
  conversation_id ${t.big} PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  bot_id TEXT NOT NULL,
  visitor_id TEXT,
  page_url TEXT,
  user_agent TEXT,
  language TEXT,
  seen_at ${t.big} NOT NULL
);
CREATE INDEX web_contacts_visitor ON web_contacts(bot_id, visitor_id);
ALTER TABLE operators ADD COLUMN avatar_url TEXT;
`;

export const webVisitors: Migration = { version: 20, name: 'web visitors and operator avatars', sqlite: tables({ big: 'INTEGER' }), postgres: tables({ big: 'BIGINT' }) };
