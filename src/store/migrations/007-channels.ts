// Messaging channels (spec channels.md): one connection per bot and platform, the updates already
// run (a platform delivers at least once), what the server knows of each messaging contact, and
// a delivery target on the outbox so that platform deliveries reuse the webhook dispatcher.
import type { Migration } from './migration.js';

const tables = (t: { big: string }) => `
CREATE TABLE channel_connections (
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  channel_id TEXT NOT NULL UNIQUE,
  enabled INTEGER NOT NULL,
  account TEXT,
  credentials TEXT,
  last_inbound_at ${t.big},
  last_error TEXT,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL,
  PRIMARY KEY (bot_id, channel)
);
CREATE TABLE channel_updates (
  channel_id TEXT NOT NULL,
  update_key TEXT NOT NULL,
  conversation_id ${t.big} REFERENCES conversations(id) ON DELETE CASCADE,
  received_at ${t.big} NOT NULL,
  PRIMARY KEY (channel_id, update_key)
);
CREATE INDEX channel_updates_age ON channel_updates(received_at);
CREATE TABLE channel_contacts (
  conversation_id ${t.big} PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  last_inbound_id TEXT,
  ban_notice_at ${t.big}
);
ALTER TABLE outbox ADD COLUMN target TEXT NOT NULL DEFAULT 'webhook';
CREATE INDEX outbox_conversation_target ON outbox(conversation_id, target, id);
`;

export const channels: Migration = {
  version: 7,
  name: 'messaging channels',
  sqlite: tables({ big: 'INTEGER' }),
  postgres: tables({ big: 'BIGINT' }),
};
