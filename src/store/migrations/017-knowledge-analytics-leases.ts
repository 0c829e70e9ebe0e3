// Per-day analytics of the questions a bot's knowledge was asked in conversations (knowledge.md
// "In the bot file": answered and left unanswered). Stored as counts per bot and UTC day, added to
// by the turn that asked, in its own transaction: a question leaves no row of its own to count
// later (the text is not kept; a missed text is, but only when the fallback ran), and the count
// must not depend on how long conversations are kept. Deleting a bot deletes its counts.
// Also: a lease on a source's background indexing (knowledge/indexing-lease.ts). The document being
// indexed lives only in the memory of the node that took it, so a source left `indexing` by a node
// that stopped can never become ready: once its lease has run out, any node marks it failed. The
// partial index keeps the once-a-second look for such sources to the few that are indexing.
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
ALTER TABLE knowledge_sources ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;
CREATE INDEX knowledge_sources_indexing ON knowledge_sources(claimed_until) WHERE status = 'indexing';
`;

export const knowledgeQuestions: Migration = { version: 17, name: 'knowledge questions per day, indexing leases', sqlite: sql, postgres: sql };
