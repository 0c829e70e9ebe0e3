// Knowledge (issue 24, knowledge.md): a bot's sources and their passages, searched by the
// database's own full-text index. Migrations 012-014 are other branches'.
// - knowledge_sources: one row per document; `generation` moves on each PUT so that an indexing
//   job for older content can never swap its passages in over newer ones;
// - knowledge_chunks: the passages. A source's passages are inserted, and its status set to
//   ready, in one transaction: a search sees all of them or none;
// - SQLite: an FTS5 table over the passages (external content, kept in step by triggers) with the
//   porter stemmer; the bot id is one of its columns so that a search intersects the bot's own
//   posting list instead of filtering every bot's matches;
// - PostgreSQL: a tsvector per passage (heading weighted A, text B) built with the bot's language
//   configuration, under a GIN index.
import type { Migration } from './migration.js';

const tables = (t: { id: string; big: string; tsv: string }) => `
CREATE TABLE knowledge_sources (
  id TEXT PRIMARY KEY,
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  chunks INTEGER NOT NULL DEFAULT 0,
  bytes ${t.big} NOT NULL,
  generation INTEGER NOT NULL DEFAULT 0,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL
);
CREATE INDEX knowledge_sources_bot ON knowledge_sources(bot_id, updated_at);
CREATE TABLE knowledge_chunks (
  id ${t.id},
  source_id TEXT NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
  bot_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  heading TEXT NOT NULL,
  text TEXT NOT NULL${t.tsv}
);
CREATE INDEX knowledge_chunks_source ON knowledge_chunks(source_id, position);
`;

const sqlite = `${tables({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER', tsv: '' })}
CREATE VIRTUAL TABLE knowledge_fts USING fts5(bot_id, heading, text, content='knowledge_chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER knowledge_chunks_indexed AFTER INSERT ON knowledge_chunks BEGIN INSERT INTO knowledge_fts(rowid, bot_id, heading, text) VALUES (new.id, new.bot_id, new.heading, new.text); END;
CREATE TRIGGER knowledge_chunks_unindexed AFTER DELETE ON knowledge_chunks BEGIN INSERT INTO knowledge_fts(knowledge_fts, rowid, bot_id, heading, text) VALUES ('delete', old.id, old.bot_id, old.heading, old.text); END;
`;

const postgres = `${tables({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT', tsv: ',\n  tsv tsvector NOT NULL' })}
CREATE INDEX knowledge_chunks_bot ON knowledge_chunks(bot_id);
CREATE INDEX knowledge_chunks_tsv ON knowledge_chunks USING GIN (tsv);
`;

export const knowledge: Migration = { version: 15, name: 'knowledge sources and passages', sqlite, postgres };
