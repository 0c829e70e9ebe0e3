// Embeddings (issue 24 "hybrid search", issue 22 "use it for intents too"; knowledge.md).
// - bot_ai_settings.embedding_model: a bot's own embedding model, on its own provider's URL and key;
// - knowledge_vectors: at most one vector per passage, of the model named beside it (float32,
//   little-endian, length 1), so changing the model is re-embedding in place, and a passage with no
//   vector of the current model is found by its words only. It goes when its passage goes (cascade);
// - intent_vectors: the vectors of a published version's examples (and of the out-of-scope
//   examples of its language) for one model, with their labels in order; gone with the version;
// - knowledge_chunks(bot_id, id): the embedder walks a bot's passages in id order.
// PostgreSQL keeps vectors in bytea: this deployment's servers have no pgvector (docs/knowledge.md
// "Embeddings" says what would change with it).
import type { Migration } from './migration.js';

const sql = (t: { big: string; blob: string }) => `
ALTER TABLE bot_ai_settings ADD COLUMN embedding_model TEXT;
CREATE TABLE knowledge_vectors (
  chunk_id ${t.big} PRIMARY KEY REFERENCES knowledge_chunks(id) ON DELETE CASCADE,
  bot_id TEXT NOT NULL,
  model TEXT NOT NULL,
  vector ${t.blob} NOT NULL
);
CREATE INDEX knowledge_vectors_bot ON knowledge_vectors(bot_id, model);
CREATE INDEX knowledge_chunks_bot_id ON knowledge_chunks(bot_id, id);
CREATE TABLE intent_vectors (
  version_id ${t.big} NOT NULL REFERENCES bot_versions(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  labels TEXT NOT NULL,
  vectors ${t.blob} NOT NULL,
  created_at ${t.big} NOT NULL,
  PRIMARY KEY (version_id, model)
);
`;

export const embeddings: Migration = {
  version: 16,
  name: 'embeddings of passages and intent examples',
  sqlite: sql({ big: 'INTEGER', blob: 'BLOB' }),
  postgres: sql({ big: 'BIGINT', blob: 'BYTEA' }),
};
