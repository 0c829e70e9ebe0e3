// The audit log's rows (migration 027, audit/port.ts): appended, read newest first by id, and
// deleted only past their account's AuditDays (a trigger refuses any UPDATE).
import type { AuditEntry, AuditQuery, StoredAuditEntry } from '../audit/model.js';
import type { Queryable, SqlValue } from './driver.js';
import { DAY_MS } from '../shared/durations.js';

interface AuditRow {
  id: number | string;
  account_id: string;
  at: number | string;
  actor: string;
  actor_kind: AuditEntry['actorKind'];
  action: string;
  target: string;
  ip: string;
  details: string;
}

const entryOf = (r: AuditRow): StoredAuditEntry => ({
  id: Number(r.id),
  accountId: r.account_id,
  at: Number(r.at),
  actor: r.actor,
  actorKind: r.actor_kind,
  action: r.action,
  target: r.target,
  ip: r.ip,
  details: JSON.parse(r.details),
});

export function auditRepository(db: Queryable) {
  return {
    async append(e: AuditEntry): Promise<void> {
      await db.run('INSERT INTO audit_log (account_id, at, actor, actor_kind, action, target, ip, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
        e.accountId,
        e.at,
        e.actor,
        e.actorKind,
        e.action,
        e.target,
        e.ip,
        JSON.stringify(e.details),
      ]);
    },
    async list(q: AuditQuery): Promise<StoredAuditEntry[]> {
      const where = ['account_id = $1'];
      const params: SqlValue[] = [q.accountId];
      const add = (sql: string, value: SqlValue | undefined) => {
        if (value === undefined) return;
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      add('at >= ?', q.from);
      add('at < ?', q.to);
      add('actor = ?', q.actor);
      add('action = ?', q.action);
      add('id < ?', q.before);
      params.push(q.limit);
      const rows = await db.all<AuditRow>(`SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`, params);
      return rows.map(entryOf);
    },
    async setAuditDays(accountId: string, days: number): Promise<void> {
      await db.run('UPDATE accounts SET audit_days = $2 WHERE id = $1', [accountId, days]);
    },
    async auditDays(accountId: string): Promise<number | null> {
      const row = await db.get<{ audit_days: number | string }>('SELECT audit_days FROM accounts WHERE id = $1', [accountId]);
      return row ? Number(row.audit_days) : null;
    },
    async expire(now: number, batch: number): Promise<number> {
      return db.run(
        `DELETE FROM audit_log WHERE id IN (SELECT l.id FROM audit_log l LEFT JOIN accounts a ON a.id = l.account_id
         WHERE l.at < CAST($1 AS BIGINT) - COALESCE(a.audit_days, 365) * CAST(${DAY_MS} AS BIGINT) ORDER BY l.id LIMIT $2)`,
        [now, batch],
      );
    },
  };
}
