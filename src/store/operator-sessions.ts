// Operator console sessions (table operator_sessions of migration 002). Only the sha256 of the
// session token is stored, so a copy of the database does not hand out live sessions.
import type { OperatorSessionRecord } from '../operators/model.js';
import type { Queryable } from './driver.js';

interface OperatorSessionRow {
  token_hash: string;
  operator_id: string;
  expires_at: number;
  created_at: number;
}

const toSession = (r: OperatorSessionRow): OperatorSessionRecord => ({
  tokenHash: r.token_hash,
  operatorId: r.operator_id,
  expiresAt: Number(r.expires_at),
  createdAt: Number(r.created_at),
});

export function operatorSessionRepository(db: Queryable) {
  return {
    async insert(s: OperatorSessionRecord): Promise<void> {
      await db.run('INSERT INTO operator_sessions (token_hash, operator_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [s.tokenHash, s.operatorId, s.expiresAt, s.createdAt]);
    },
    async byTokenHash(tokenHash: string): Promise<OperatorSessionRecord | null> {
      const row = await db.get<OperatorSessionRow>('SELECT * FROM operator_sessions WHERE token_hash = $1', [tokenHash]);
      return row ? toSession(row) : null;
    },
    async remove(tokenHash: string): Promise<void> {
      await db.run('DELETE FROM operator_sessions WHERE token_hash = $1', [tokenHash]);
    },
    async removeExpired(now: number): Promise<number> {
      return db.run('DELETE FROM operator_sessions WHERE expires_at <= $1', [now]);
    },
  };
}

export type OperatorSessionRepository = ReturnType<typeof operatorSessionRepository>;
