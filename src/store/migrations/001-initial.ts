// Accounts, bots with draft and published versions, conversations with their history, usage.
// Times are integer milliseconds since the epoch in both databases; JSON is stored as text.
import type { Migration } from './migration.js';

const tables = (t: { id: string; big: string }) => `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan TEXT NOT NULL,
  packages TEXT NOT NULL,
  api_key TEXT NOT NULL UNIQUE,
  created_at ${t.big} NOT NULL
);
CREATE TABLE operators (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  UNIQUE (account_id, email)
);
CREATE TABLE bots (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  api_key TEXT NOT NULL UNIQUE,
  api_secret TEXT NOT NULL,
  secret_version INTEGER NOT NULL,
  web_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  avatar TEXT NOT NULL,
  settings TEXT NOT NULL,
  draft TEXT NOT NULL,
  version INTEGER NOT NULL,
  live_version_id ${t.big},
  role TEXT NOT NULL,
  master_bot_id TEXT,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL
);
CREATE INDEX bots_account ON bots(account_id);
CREATE TABLE bot_versions (
  id ${t.id},
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  content TEXT NOT NULL,
  published_at ${t.big} NOT NULL
);
CREATE INDEX bot_versions_bot ON bot_versions(bot_id, version);
CREATE TABLE conversations (
  id ${t.id},
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  state TEXT NOT NULL,
  control_state INTEGER NOT NULL,
  operator TEXT,
  ban_expiration TEXT,
  ban_message TEXT,
  forgetting INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL,
  UNIQUE (bot_id, user_id)
);
CREATE TABLE messages (
  id ${t.id},
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  direction TEXT NOT NULL,
  parts TEXT NOT NULL,
  pending INTEGER NOT NULL,
  created_at ${t.big} NOT NULL
);
CREATE INDEX messages_conversation ON messages(conversation_id, id);
CREATE INDEX messages_pending ON messages(conversation_id, pending);
CREATE TABLE usage (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  month TEXT NOT NULL,
  messages ${t.big} NOT NULL,
  replies ${t.big} NOT NULL,
  notifications ${t.big} NOT NULL,
  api_calls ${t.big} NOT NULL,
  PRIMARY KEY (account_id, month)
);
`;

export const initial: Migration = {
  version: 1,
  name: 'initial',
  sqlite: tables({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' }),
  postgres: tables({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' }),
};
