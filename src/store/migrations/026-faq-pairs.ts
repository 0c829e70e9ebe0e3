// FAQ sources keep their pairs (issue 37 item 7): the console edits an FAQ pair by pair, so the
// pairs as written must survive indexing, not only as passages. One row per pair, in order; they
// go with their source (ON DELETE CASCADE). An FAQ added before this migration has its pairs
// rebuilt from its passages (knowledge/faq-pairs.ts), so it opens in the editor like a new one.
import { pairsFromPassages } from '../../knowledge/faq-pairs.js';
import { MAX_HEADING_CHARS } from '../../knowledge/passages.js';
import type { Queryable } from '../driver.js';
import type { Migration } from './migration.js';

const table = `
CREATE TABLE knowledge_faq_pairs (
  source_id TEXT NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  question TEXT NOT NULL,
  answer TEXT NOT NULL,
  PRIMARY KEY (source_id, position)
);
`;

async function rebuildPairs(tx: Queryable): Promise<void> {
  const sources = await tx.all<{ id: string }>(`SELECT id FROM knowledge_sources WHERE kind = 'faq' AND status = 'ready'`);
  for (const source of sources) {
    const passages = await tx.all<{ heading: string; text: string }>('SELECT heading, text FROM knowledge_chunks WHERE source_id = $1 ORDER BY position', [source.id]);
    const pairs = pairsFromPassages(passages, MAX_HEADING_CHARS);
    for (const [position, pair] of pairs.entries()) {
      await tx.run('INSERT INTO knowledge_faq_pairs (source_id, position, question, answer) VALUES ($1, $2, $3, $4)', [source.id, position, pair.Question, pair.Answer]);
    }
  }
}

export const faqPairs: Migration = { version: 26, name: 'FAQ pairs kept as written', sqlite: table, postgres: table, data: rebuildPairs };
