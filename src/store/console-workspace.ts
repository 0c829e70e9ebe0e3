// The console's own tables (migration 011): conversation assignments, private notes between
// operators, and an account's canned responses. None of them is conversation state: they are
// plain writes, not turns (docs/decisions.md "Console assignment").
import type { Assignment, CannedResponse, NoteRecord } from '../operators/model.js';
import type { Queryable } from './driver.js';

interface AssignmentRow {
  conversation_id: number;
  operator_id: string;
  name: string;
  email: string;
  assigned_at: number;
}

const toAssignment = (r: AssignmentRow): Assignment => ({
  conversationId: Number(r.conversation_id),
  operatorId: r.operator_id,
  operatorName: r.name,
  operatorEmail: r.email,
  assignedAt: Number(r.assigned_at),
});

export function assignmentRepository(db: Queryable) {
  return {
    /** Assigns (or re-assigns) the conversation; an assignment of a deleted conversation is a no-op. */
    async assign(conversationId: number, operatorId: string, now: number): Promise<void> {
      await db.run(
        `INSERT INTO conversation_assignments (conversation_id, operator_id, assigned_at)
         SELECT id, $2, $3 FROM conversations WHERE id = $1
         ON CONFLICT (conversation_id) DO UPDATE SET operator_id = EXCLUDED.operator_id, assigned_at = EXCLUDED.assigned_at`,
        [conversationId, operatorId, now],
      );
    },
    async unassign(conversationId: number): Promise<void> {
      await db.run('DELETE FROM conversation_assignments WHERE conversation_id = $1', [conversationId]);
    },
    async ofConversations(conversationIds: number[]): Promise<Map<number, Assignment>> {
      if (conversationIds.length === 0) return new Map();
      const placeholders = conversationIds.map((_, i) => `$${i + 1}`).join(', ');
      const rows = await db.all<AssignmentRow>(
        `SELECT a.conversation_id, a.operator_id, o.name, o.email, a.assigned_at
         FROM conversation_assignments a JOIN operators o ON o.id = a.operator_id
         WHERE a.conversation_id IN (${placeholders})`,
        conversationIds,
      );
      return new Map(rows.map((r) => [Number(r.conversation_id), toAssignment(r)]));
    },
  };
}

interface NoteRow {
  id: number;
  conversation_id: number;
  author: string;
  text: string;
  created_at: number;
}

const toNote = (r: NoteRow): NoteRecord => ({ id: Number(r.id), conversationId: Number(r.conversation_id), author: r.author, text: r.text, createdAt: Number(r.created_at) });

/**
 * Holds a row until the transaction ends (PostgreSQL; SQLite runs its transactions one after
 * another), so that what hangs off it is counted and written by one request at a time. `FOR NO
 * KEY UPDATE` leaves other tables' foreign-key checks on the row free.
 */
async function holdRow(db: Queryable, table: 'accounts' | 'conversations', id: string | number): Promise<void> {
  if (db.dialect === 'postgres') await db.get(`SELECT id FROM ${table} WHERE id = $1 FOR NO KEY UPDATE`, [id]);
}

export function noteRepository(db: Queryable) {
  return {
    /**
     * Adds a note and keeps the conversation's newest `keep` (the console shows no more). Run it
     * in a transaction: the conversation's row is held while its notes are counted.
     */
    async insert(note: Omit<NoteRecord, 'id'>, operatorId: string | null, keep: number): Promise<NoteRecord> {
      await holdRow(db, 'conversations', note.conversationId);
      const row = await db.get<{ id: number }>('INSERT INTO conversation_notes (conversation_id, operator_id, author, text, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
        note.conversationId,
        operatorId,
        note.author,
        note.text,
        note.createdAt,
      ]);
      await db.run(
        `DELETE FROM conversation_notes WHERE conversation_id = $1 AND id <= (
           SELECT id FROM conversation_notes WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`,
        [note.conversationId, keep],
      );
      return { ...note, id: Number(row!.id) };
    },
    /** The newest `limit` notes, oldest first. */
    async ofConversation(conversationId: number, limit: number): Promise<NoteRecord[]> {
      const rows = await db.all<NoteRow>('SELECT * FROM conversation_notes WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2', [conversationId, limit]);
      return rows.reverse().map(toNote);
    },
  };
}

interface CannedRow {
  id: number;
  account_id: string;
  shortcut: string;
  text: string;
  updated_at: number;
}

const toCanned = (r: CannedRow): CannedResponse => ({ id: Number(r.id), accountId: r.account_id, shortcut: r.shortcut, text: r.text, updatedAt: Number(r.updated_at) });

export function cannedResponseRepository(db: Queryable) {
  return {
    async ofAccount(accountId: string): Promise<CannedResponse[]> {
      const rows = await db.all<CannedRow>('SELECT * FROM canned_responses WHERE account_id = $1 ORDER BY shortcut', [accountId]);
      return rows.map(toCanned);
    },
    /**
     * 'full' when the account has `max` already, null when it has a response with this shortcut.
     * Run it in a transaction: the account's row is held while its responses are counted, so
     * concurrent creates cannot all see room for one more.
     */
    async insert(c: Omit<CannedResponse, 'id'>, max: number): Promise<CannedResponse | null | 'full'> {
      await holdRow(db, 'accounts', c.accountId);
      const counted = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM canned_responses WHERE account_id = $1', [c.accountId]);
      if (Number(counted?.n ?? 0) >= max) return 'full';
      const row = await db.get<{ id: number }>(
        `INSERT INTO canned_responses (account_id, shortcut, text, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, shortcut) DO NOTHING RETURNING id`,
        [c.accountId, c.shortcut, c.text, c.updatedAt],
      );
      return row ? { ...c, id: Number(row.id) } : null;
    },
    /** 'missing' for another account's or a deleted id; 'taken' when the new shortcut is another response's. */
    async update(c: CannedResponse): Promise<'updated' | 'missing' | 'taken'> {
      const clash = await db.get<{ id: number }>('SELECT id FROM canned_responses WHERE account_id = $1 AND shortcut = $2 AND id <> $3', [c.accountId, c.shortcut, c.id]);
      if (clash) return 'taken';
      let changed: number;
      try {
        changed = await db.run('UPDATE canned_responses SET shortcut = $3, text = $4, updated_at = $5 WHERE id = $1 AND account_id = $2', [c.id, c.accountId, c.shortcut, c.text, c.updatedAt]);
      } catch (error) {
        // Two renames to one shortcut at the same moment: the unique index settles it (PostgreSQL
        // 23505; SQLite has one writer, so the check above already saw the other).
        if ((error as { code?: string }).code === '23505' || (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return 'taken';
        throw error;
      }
      return changed === 1 ? 'updated' : 'missing';
    },
    async remove(accountId: string, id: number): Promise<boolean> {
      return (await db.run('DELETE FROM canned_responses WHERE id = $1 AND account_id = $2', [id, accountId])) === 1;
    },
  };
}
