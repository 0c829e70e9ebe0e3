import type { OperatorRecord } from '../operators/model.js';
import { DEFAULT_ROLE, isOperatorRole } from '../operators/model.js';
import type { Queryable } from './driver.js';

interface OperatorRow {
  id: string;
  account_id: string;
  email: string;
  name: string;
  password_hash: string;
  role: string;
  created_at: number;
}

const toOperator = (r: OperatorRow): OperatorRecord => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  name: r.name,
  passwordHash: r.password_hash,
  role: isOperatorRole(r.role) ? r.role : DEFAULT_ROLE,
  createdAt: Number(r.created_at),
});

export function operatorRepository(db: Queryable) {
  return {
    /** Returns false when the account already has an operator with this e-mail. */
    async insert(op: OperatorRecord): Promise<boolean> {
      const changed = await db.run(
        `INSERT INTO operators (id, account_id, email, name, password_hash, role, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, email) DO NOTHING`,
        [op.id, op.accountId, op.email, op.name, op.passwordHash, op.role, op.createdAt],
      );
      return changed === 1;
    },
    /** The changed operator, or null when the account has no operator with this id. */
    async setRole(accountId: string, operatorId: string, role: OperatorRecord['role']): Promise<OperatorRecord | null> {
      const row = await db.get<OperatorRow>('UPDATE operators SET role = $3 WHERE account_id = $1 AND id = $2 RETURNING *', [accountId, operatorId, role]);
      return row ? toOperator(row) : null;
    },
    async byEmail(accountId: string, email: string): Promise<OperatorRecord | null> {
      const row = await db.get<OperatorRow>('SELECT * FROM operators WHERE account_id = $1 AND email = $2', [accountId, email]);
      return row ? toOperator(row) : null;
    },
    async byId(id: string): Promise<OperatorRecord | null> {
      const row = await db.get<OperatorRow>('SELECT * FROM operators WHERE id = $1', [id]);
      return row ? toOperator(row) : null;
    },
    /** The account's operators, by name (the console's colleague and team pickers); at most 500. */
    async ofAccount(accountId: string): Promise<OperatorRecord[]> {
      const rows = await db.all<OperatorRow>('SELECT * FROM operators WHERE account_id = $1 ORDER BY name, id LIMIT 500', [accountId]);
      return rows.map(toOperator);
    },
    /** Sets the password of an invited operator (hash made by shared/passwords.ts). */
    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.run('UPDATE operators SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
    },
    /** Deletes an operator of the account (sessions, presence and invitations go with it); false when none. */
    async remove(accountId: string, id: string): Promise<boolean> {
      return (await db.run('DELETE FROM operators WHERE account_id = $1 AND id = $2', [accountId, id])) === 1;
    },
    /** Keeps this invitation link (its token's hash) until `expiresAt`, replacing the operator's earlier ones. */
    async setInvite(operatorId: string, tokenHash: string, expiresAt: number): Promise<void> {
      await db.run('DELETE FROM operator_invites WHERE operator_id = $1', [operatorId]);
      await db.run('INSERT INTO operator_invites (token_hash, operator_id, expires_at) VALUES ($1, $2, $3)', [tokenHash, operatorId, expiresAt]);
    },
    /** The operator an unexpired link is for; the link is used up (deleted) in the same statement. */
    async takeInvite(tokenHash: string, now: number): Promise<string | null> {
      const row = await db.get<{ operator_id: string; expires_at: number }>('DELETE FROM operator_invites WHERE token_hash = $1 RETURNING operator_id, expires_at', [tokenHash]);
      return row && Number(row.expires_at) > now ? row.operator_id : null;
    },
    /** Console sign-in: the same e-mail may be an operator of several accounts. */
    async allByEmail(email: string): Promise<OperatorRecord[]> {
      const rows = await db.all<OperatorRow>('SELECT * FROM operators WHERE email = $1 ORDER BY created_at, id', [email]);
      return rows.map(toOperator);
    },
  };
}
