// Per-day analytics of the questions a bot's knowledge was asked in conversations (knowledge.md
// "In the bot file": answered and left unanswered). Stored as counts per bot and UTC day, added to
// by the turn that asked, in its own transaction: a question leaves no row of its own to count
// later (the text is not kept; a missed text is, but only when the fallback ran), and the count
// must not depend on how long conversations are kept. Deleting a bot deletes its counts.
// Migration 016 is another branch's (embeddings).
import type { Migration } from './migration.js';

const sql = `
CREATE TABLE knowledge_questions (
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  day INTEGER NOT NULL,
  answered INTEGER NOT NULL DEFAULT 0,
  unanswered INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (bot_id, day)
);
`;

export const knowledgeQuestions: Migration = { version: 17, name: 'knowledge questions answered and unanswered per day', sqlite: sql, postgres: sql };
