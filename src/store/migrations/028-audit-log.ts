// The audit log (governance.md "Audit log", issue 42): who changed what and when, one row per
// state-changing request or background run, per account (account_id '' for what concerns no account:
// a server admin creating one, a sign-in with an e-mail no account knows). Append-only: a trigger
// refuses every UPDATE on both databases; rows are deleted only by maintenance once older than the
// account's AuditDays (accounts.audit_days, default 365), oldest first by `at`. Newest-first reads
// page by id, the cursor.
import type { Migration } from './migration.js';

const table = (t: { id: string; big: string }) => `
CREATE TABLE audit_log (
  id ${t.id},
  account_id TEXT NOT NULL,
  at ${t.big} NOT NULL,
  actor TEXT NOT NULL,
  actor_kind TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  ip TEXT NOT NULL,
  details TEXT NOT NULL
);
CREATE INDEX audit_log_account ON audit_log(account_id, id);
CREATE INDEX audit_log_at ON audit_log(at);
ALTER TABLE accounts ADD COLUMN audit_days INTEGER NOT NULL DEFAULT 365;
`;

// Statements are split on ";" at a line's end, so each trigger stays on one line.
const sqlite = `${table({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' })}
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
`;

const postgres = `${table({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' })}
CREATE FUNCTION colloquy_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION colloquy_audit_append_only();
`;

export const auditLog: Migration = { version: 28, name: 'the audit log, append-only, and the accounts’ AuditDays', sqlite, postgres };
