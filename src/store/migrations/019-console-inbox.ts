// The console as an inbox (issue 27): every message searchable through the database's own
// full-text index, activity lines (taken over, handed back, banned, resolved…) beside the
// transcript, a conversation's inbox status (resolved, snoozed) and team, and the account's teams.
// All of it hangs off conversations or accounts with ON DELETE CASCADE, so forgetting a user
// deletes it with the rest. The index holds only the `Text` members of a message's parts (what
// was said, not part types or URLs).
// SQLite: a contentless FTS5 table kept by triggers (also on the deletes a cascade makes), with
// `secure-delete` so a forgotten message's words leave the index's pages at once, not at a later
// merge (docs/limits.md "Forgetting"). PostgreSQL: a GIN index on an expression of the row, which
// every statement that inserts messages (turn-in-one-statement.ts included) keeps without change.
// Versions 16 to 18 are left to other work of the same issue.
import type { Migration } from './migration.js';

const tables = (t: { id: string; big: string }) => `
CREATE TABLE conversation_activity (
  id ${t.id},
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  actor TEXT NOT NULL,
  detail TEXT,
  created_at ${t.big} NOT NULL
);
CREATE INDEX conversation_activity_conversation ON conversation_activity(conversation_id, id);
CREATE TABLE teams (
  id ${t.id},
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  UNIQUE (account_id, name)
);
CREATE TABLE team_members (
  team_id ${t.big} NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  last_assigned_at ${t.big} NOT NULL,
  PRIMARY KEY (team_id, operator_id)
);
CREATE TABLE conversation_inbox (
  conversation_id ${t.big} PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  snoozed_until ${t.big},
  team_id ${t.big} REFERENCES teams(id) ON DELETE SET NULL,
  changed_at ${t.big} NOT NULL
);
CREATE INDEX conversation_inbox_team ON conversation_inbox(team_id);
`;

/** The words of a message as the SQLite index sees them: its parts' `Text` members, nested ones too. */
export const SQLITE_MESSAGE_WORDS = (row: string) => `(SELECT group_concat(value, ' ') FROM json_tree(${row}.parts) WHERE key = 'Text' AND type = 'text')`;
/** The same for PostgreSQL, written exactly as the index is, so that the planner uses it. */
// The parts' JSON text as it is stored, not cast to jsonb: jsonb refuses a `\u0000` escape that the
// text column holds (store round trips), which made such a message fail to be stored at all. The
// JSON's own keys ("Type", "Text") become words of every message: harmless for a search of what
// was said.
export const PG_MESSAGE_WORDS = (parts: string) => `to_tsvector('simple'::regconfig, ${parts})`;

export const consoleInbox: Migration = {
  version: 19,
  name: 'console inbox: message search, activity, status, teams',
  sqlite: `${tables({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' })}
CREATE VIRTUAL TABLE message_search USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 1);
INSERT INTO message_search(rowid, body) SELECT m.id, ${SQLITE_MESSAGE_WORDS('m')} FROM messages m;
CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN INSERT INTO message_search(rowid, body) SELECT new.id, ${SQLITE_MESSAGE_WORDS('new')}; END;
CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN DELETE FROM message_search WHERE rowid = old.id; END;
`,
  postgres: `${tables({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' })}
CREATE INDEX messages_search ON messages USING GIN (${PG_MESSAGE_WORDS('parts')});
`,
};
