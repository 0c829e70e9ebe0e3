// What operators keep beside a conversation in the console (issue 15): when its control state
// last changed (the real time a user waits for a person), who of the operators has it, their
// private notes, and the account's canned responses. Assignments and notes hang off the
// conversation with ON DELETE CASCADE, so forgetting a user deletes them with the rest.
// (Version 10 is left to the analytics work of the same issue.)
import type { Migration } from './migration.js';

const sql = (t: { id: string; big: string }) => `
ALTER TABLE conversations ADD COLUMN control_changed_at ${t.big};
UPDATE conversations SET control_changed_at = updated_at;
CREATE TABLE conversation_assignments (
  conversation_id ${t.big} PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  assigned_at ${t.big} NOT NULL
);
CREATE INDEX conversation_assignments_operator ON conversation_assignments(operator_id);
CREATE TABLE conversation_notes (
  id ${t.id},
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  operator_id TEXT REFERENCES operators(id) ON DELETE SET NULL,
  author TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at ${t.big} NOT NULL
);
CREATE INDEX conversation_notes_conversation ON conversation_notes(conversation_id, id);
CREATE TABLE canned_responses (
  id ${t.id},
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  shortcut TEXT NOT NULL,
  text TEXT NOT NULL,
  updated_at ${t.big} NOT NULL,
  UNIQUE (account_id, shortcut)
);
`;

export const consoleWorkspace: Migration = {
  version: 11,
  name: 'console workspace: control change time, assignments, notes, canned responses',
  sqlite: sql({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' }),
  postgres: sql({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' }),
};
