// A turn's messages as the rows of `messages`: parts stored as JSON text, and the history size
// they add counted as both databases count it (octet_length(parts): UTF-8 bytes of that text).
// Encoded once per turn, whichever statement writes them.
import type { Direction, NewMessage } from '../conversations/model.js';
import type { Queryable, SqlValue } from './driver.js';

export interface MessageRow {
  direction: Direction;
  parts: string;
  pending: 0 | 1;
}

export function encodeMessages(messages: NewMessage[]): { rows: MessageRow[]; bytes: number } {
  let bytes = 0;
  const rows = messages.map((m): MessageRow => {
    const parts = JSON.stringify(m.parts);
    bytes += Buffer.byteLength(parts);
    return { direction: m.direction, parts, pending: m.pending ? 1 : 0 };
  });
  return { rows, bytes };
}

/** One statement per 500 messages (a turn has one or two): few round trips, and far below
 *  SQLite's limit on parameters in one statement. */
const ROWS_PER_STATEMENT = 500;

const buildInsert = (n: number) =>
  `INSERT INTO messages (conversation_id, created_at, direction, parts, pending) VALUES ${Array.from({ length: n }, (_m, i) => `($1, $2, $${i * 3 + 3}, $${i * 3 + 4}, $${i * 3 + 5})`).join(', ')}`;

/** The INSERTs of the few rows a turn writes, made once: the same text object every time, so that
 *  looking the prepared statement up does not hash a new string on every turn. */
const TURN_SIZED = Array.from({ length: 9 }, (_x, n) => buildInsert(n));
const insertText = (n: number) => TURN_SIZED[n] ?? buildInsert(n);

/** Inserts the rows in order, without touching the history size kept in the conversation row. */
export async function insertMessageRows(db: Queryable, conversationId: number, rows: MessageRow[], now: number): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const params: SqlValue[] = [conversationId, now];
    for (const m of chunk) params.push(m.direction, m.parts, m.pending);
    await db.run(insertText(chunk.length), params);
  }
}
