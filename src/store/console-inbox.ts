// The console's inbox tables (migration 019): activity lines, a conversation's inbox status and
// team, the account's teams, and the full-text search of messages. Console records, not
// conversation state: plain writes, never turns (docs/decisions.md "Console assignment").
import type { ActivityRecord, InboxRecord, MessageHit, TeamRecord } from '../operators/model.js';
import type { Queryable } from './driver.js';
import { PG_MESSAGE_WORDS, SQLITE_MESSAGE_WORDS } from './migrations/019-console-inbox.js';

const list = (from: number, n: number) => Array.from({ length: n }, (_x, i) => `$${from + i}`).join(', ');

export function activityRepository(db: Queryable) {
  return {
    async insert(a: Omit<ActivityRecord, 'id'>): Promise<void> {
      await db.run('INSERT INTO conversation_activity (conversation_id, kind, actor, detail, created_at) SELECT id, $2, $3, $4, $5 FROM conversations WHERE id = $1', [
        a.conversationId,
        a.kind,
        a.actor,
        a.detail,
        a.createdAt,
      ]);
    },
    /** The newest `limit` lines, oldest first. */
    async ofConversation(conversationId: number, limit: number): Promise<ActivityRecord[]> {
      const rows = await db.all<{ id: number; conversation_id: number; kind: string; actor: string; detail: string | null; created_at: number }>(
        'SELECT * FROM conversation_activity WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2',
        [conversationId, limit],
      );
      return rows.reverse().map((r) => ({ id: Number(r.id), conversationId: Number(r.conversation_id), kind: r.kind, actor: r.actor, detail: r.detail, createdAt: Number(r.created_at) }));
    },
  };
}

export function inboxRepository(db: Queryable) {
  return {
    /** Sets the status (null: open again); the team stays. */
    async setStatus(conversationId: number, status: InboxRecord['status'], snoozedUntil: number | null, now: number): Promise<void> {
      await db.run(
        `INSERT INTO conversation_inbox (conversation_id, status, snoozed_until, team_id, changed_at) SELECT id, $2, $3, NULL, $4 FROM conversations WHERE id = $1
         ON CONFLICT (conversation_id) DO UPDATE SET status = EXCLUDED.status, snoozed_until = EXCLUDED.snoozed_until, changed_at = EXCLUDED.changed_at`,
        [conversationId, status ?? 'open', snoozedUntil, now],
      );
    },
    async setTeam(conversationId: number, teamId: number | null, now: number): Promise<void> {
      await db.run(
        `INSERT INTO conversation_inbox (conversation_id, status, snoozed_until, team_id, changed_at) SELECT id, 'open', NULL, $2, $3 FROM conversations WHERE id = $1
         ON CONFLICT (conversation_id) DO UPDATE SET team_id = EXCLUDED.team_id`,
        [conversationId, teamId, now],
      );
    },
    async ofConversations(ids: number[]): Promise<Map<number, InboxRecord>> {
      if (ids.length === 0) return new Map();
      const rows = await db.all<{ conversation_id: number; status: string; snoozed_until: number | null; team_id: number | null; name: string | null; changed_at: number }>(
        `SELECT i.*, t.name FROM conversation_inbox i LEFT JOIN teams t ON t.id = i.team_id WHERE i.conversation_id IN (${list(1, ids.length)})`,
        ids,
      );
      return new Map(
        rows.map((r) => [
          Number(r.conversation_id),
          {
            status: r.status === 'open' ? null : (r.status as 'resolved' | 'snoozed'),
            snoozedUntil: r.snoozed_until === null ? null : Number(r.snoozed_until),
            team: r.team_id === null ? null : { id: Number(r.team_id), name: r.name ?? '' },
            changedAt: Number(r.changed_at),
          },
        ]),
      );
    },
  };
}

export function teamRepository(db: Queryable) {
  return {
    async ofAccount(accountId: string): Promise<TeamRecord[]> {
      const teams = await db.all<{ id: number; name: string }>('SELECT id, name FROM teams WHERE account_id = $1 ORDER BY name', [accountId]);
      const members = await db.all<{ team_id: number; operator_id: string }>(
        'SELECT m.team_id, m.operator_id FROM team_members m JOIN teams t ON t.id = m.team_id WHERE t.account_id = $1 ORDER BY m.operator_id',
        [accountId],
      );
      return teams.map((t) => ({ id: Number(t.id), name: t.name, memberIds: members.filter((m) => Number(m.team_id) === Number(t.id)).map((m) => m.operator_id) }));
    },
    /** null when the account has a team of this name already. */
    async create(accountId: string, name: string, now: number): Promise<number | null> {
      const row = await db.get<{ id: number }>('INSERT INTO teams (account_id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (account_id, name) DO NOTHING RETURNING id', [accountId, name, now]);
      return row ? Number(row.id) : null;
    },
    async remove(accountId: string, teamId: number): Promise<boolean> {
      return (await db.run('DELETE FROM teams WHERE id = $1 AND account_id = $2', [teamId, accountId])) === 1;
    },
    /** The members become exactly `operatorIds` (who stays keeps their place in the rotation). */
    async setMembers(teamId: number, operatorIds: string[], now: number): Promise<void> {
      if (operatorIds.length === 0) await db.run('DELETE FROM team_members WHERE team_id = $1', [teamId]);
      else await db.run(`DELETE FROM team_members WHERE team_id = $1 AND operator_id NOT IN (${list(2, operatorIds.length)})`, [teamId, ...operatorIds]);
      for (const id of operatorIds) {
        await db.run('INSERT INTO team_members (team_id, operator_id, last_assigned_at) VALUES ($1, $2, $3) ON CONFLICT (team_id, operator_id) DO NOTHING', [teamId, id, now]);
      }
    },
    /**
     * Round robin: of the members in `candidates` (those online), the one who got a conversation
     * of this team longest ago, marked as getting one now. Run it in a transaction.
     */
    async nextMember(teamId: number, candidates: string[], now: number): Promise<string | null> {
      if (candidates.length === 0) return null;
      const row = await db.get<{ operator_id: string }>(
        `SELECT operator_id FROM team_members WHERE team_id = $1 AND operator_id IN (${list(2, candidates.length)}) ORDER BY last_assigned_at, operator_id LIMIT 1`,
        [teamId, ...candidates],
      );
      if (!row) return null;
      await db.run('UPDATE team_members SET last_assigned_at = $3 WHERE team_id = $1 AND operator_id = $2', [teamId, row.operator_id, now]);
      return row.operator_id;
    },
  };
}

export function messageSearchRepository(db: Queryable) {
  return {
    /**
     * SQLite only (Store.indexNewMessages runs it in a transaction: the index and its progress
     * move together): indexes up to `batch` of the messages stored since the last call.
     */
    async catchUp(batch: number): Promise<number> {
      const progress = await db.get<{ last_id: number }>('SELECT last_id FROM message_search_progress WHERE id = 1');
      const from = progress?.last_id ?? 0;
      const next = await db.get<{ top: number | null; n: number }>('SELECT MAX(id) AS top, COUNT(*) AS n FROM (SELECT id FROM messages WHERE id > $1 ORDER BY id LIMIT $2)', [from, batch]);
      if (!next || next.top === null || next.n === 0) return 0;
      await db.run(`INSERT INTO message_search(rowid, body) SELECT m.id, ${SQLITE_MESSAGE_WORDS('m')} FROM messages m WHERE m.id > $1 AND m.id <= $2`, [from, next.top]);
      await db.run('UPDATE message_search_progress SET last_id = $1 WHERE id = 1', [next.top]);
      return Number(next.n);
    },
    /** The newest messages of these bots' conversations that hold every word (as word prefixes). */
    async find(botIds: string[], queryWords: string[], limit: number): Promise<MessageHit[]> {
      // Letters and digits only (operators/console-inbox.ts makes them so): nothing else may reach
      // the MATCH or tsquery syntax, whoever calls.
      const words = queryWords.filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
      if (botIds.length === 0 || words.length === 0) return [];
      const bots = list(3, botIds.length);
      const rows =
        db.dialect === 'sqlite'
          ? await db.all<HitRow>(
              `SELECT m.conversation_id, m.direction, m.parts, m.created_at FROM message_search s
               JOIN messages m ON m.id = s.rowid JOIN conversations c ON c.id = m.conversation_id
               WHERE message_search MATCH $1 AND c.forgetting = 0 AND c.bot_id IN (${bots}) ORDER BY m.id DESC LIMIT $2`,
              [words.map((w) => `"${w}"*`).join(' AND '), limit, ...botIds],
            )
          : await db.all<HitRow>(
              `SELECT m.conversation_id, m.direction, m.parts, m.created_at FROM messages m JOIN conversations c ON c.id = m.conversation_id
               WHERE ${PG_MESSAGE_WORDS('m.parts')} @@ to_tsquery('simple', $1) AND c.forgetting = 0 AND c.bot_id IN (${bots}) ORDER BY m.id DESC LIMIT $2`,
              [words.map((w) => `${w}:*`).join(' & '), limit, ...botIds],
            );
      return rows.map((r) => ({ conversationId: Number(r.conversation_id), direction: r.direction, parts: JSON.parse(r.parts), createdAt: Number(r.created_at) }));
    },
  };
}

interface HitRow {
  conversation_id: number;
  direction: string;
  parts: string;
  created_at: number;
}
