// Shared conversation URLs (api.md section 9) and operator console sessions.
import type { Migration } from './migration.js';

const tables = (big: string) => `
CREATE TABLE shares (
  code TEXT PRIMARY KEY,
  conversation_id ${big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  mode TEXT NOT NULL,
  expires_at ${big} NOT NULL,
  handed_back INTEGER NOT NULL,
  created_at ${big} NOT NULL
);
CREATE INDEX shares_conversation ON shares(conversation_id);
CREATE INDEX shares_auto_expiry ON shares(mode, handed_back, expires_at);
CREATE TABLE operator_sessions (
  token_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  expires_at ${big} NOT NULL,
  created_at ${big} NOT NULL
);
CREATE INDEX conversations_forgetting ON conversations(forgetting);
CREATE INDEX conversations_control ON conversations(control_state);
`;

export const shares: Migration = { version: 2, name: 'shares and operator sessions', sqlite: tables('INTEGER'), postgres: tables('BIGINT') };
