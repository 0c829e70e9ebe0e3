// The webhook outbox (api.md section 12): rows written in the same transaction as the turn or
// state change that causes them, delivered in order per conversation by any node.
import type { Migration } from './migration.js';

const tables = (t: { id: string; big: string }) => `
CREATE TABLE outbox (
  id ${t.id},
  delivery_id TEXT NOT NULL UNIQUE,
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  last_status_code INTEGER,
  last_error TEXT,
  next_attempt_at ${t.big} NOT NULL,
  claimed_until ${t.big} NOT NULL,
  created_at ${t.big} NOT NULL,
  delivered_at ${t.big}
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
CREATE INDEX outbox_conversation ON outbox(conversation_id, id);
CREATE INDEX outbox_bot ON outbox(bot_id, id);
CREATE TABLE webhook_endpoints (
  bot_id TEXT PRIMARY KEY REFERENCES bots(id) ON DELETE CASCADE,
  consecutive_failures INTEGER NOT NULL,
  paused_until ${t.big} NOT NULL
);
`;

export const webhooks: Migration = {
  version: 4,
  name: 'webhook outbox',
  sqlite: tables({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' }),
  postgres: tables({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' }),
};
