// Rows that used to grow without bound (issue 22, docs/limits.md):
// - missed_texts: a text is stored cut to 1 KiB (the grouping key is indexed, and PostgreSQL's
//   btree refuses a key over 2.7 KB), a conversation keeps its newest 100; the maintenance pass
//   deletes by age (hence the created_at index) and keeps a bot's newest 10,000;
// - outbox: delivered rows are deleted after a week by the maintenance pass (a partial index
//   over the delivered ones, which are the rows it looks for).
// Existing rows are brought within the bounds here; the numbers are those of this version.
import { cutToBytes } from '../../shared/utf8.js';
import type { Migration } from './migration.js';

const MISSED_TEXT_BYTES = 1024;
const MISSED_TEXTS_PER_CONVERSATION = 100;

const sql = `
DELETE FROM missed_texts WHERE id IN (
  SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY conversation_id ORDER BY id DESC) AS newer FROM missed_texts) ranked
  WHERE newer > ${MISSED_TEXTS_PER_CONVERSATION});
DROP INDEX missed_texts_conversation;
CREATE INDEX missed_texts_conversation ON missed_texts(conversation_id, id);
CREATE INDEX missed_texts_created ON missed_texts(created_at);
CREATE INDEX outbox_delivered ON outbox(delivered_at) WHERE status = 'delivered';
`;

export const boundedRows: Migration = {
  version: 12,
  name: 'missed texts cut and kept per conversation; delivered outbox rows indexed for pruning',
  sqlite: sql,
  postgres: sql,
  // A character is at most 4 bytes: a text of 256 characters or fewer is within the bound already.
  data: async (tx) => {
    const long = await tx.all<{ id: number; text: string; text_key: string }>('SELECT id, text, text_key FROM missed_texts WHERE length(text) > 256 OR length(text_key) > 256');
    for (const row of long) {
      const text = cutToBytes(row.text, MISSED_TEXT_BYTES);
      const key = cutToBytes(row.text_key, MISSED_TEXT_BYTES);
      if (text !== row.text || key !== row.text_key) await tx.run('UPDATE missed_texts SET text = $2, text_key = $3 WHERE id = $1', [row.id, text, key]);
    }
  },
};
