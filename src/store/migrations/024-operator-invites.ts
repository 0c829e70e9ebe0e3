// Teammates invited from the console (issue 37 item 5): an invited operator has no password until
// they open their one-time link. Only the link token's SHA-256 is kept, with its expiry; taking it
// deletes it, so a link works once.
import type { Migration } from './migration.js';

const table = (big: string) => `
CREATE TABLE operator_invites (
  token_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  expires_at ${big} NOT NULL
);
CREATE INDEX operator_invites_operator ON operator_invites(operator_id);
`;

export const operatorInvites: Migration = {
  version: 24,
  name: 'one-time invitation links for operators',
  sqlite: table('INTEGER'),
  postgres: table('BIGINT'),
};
