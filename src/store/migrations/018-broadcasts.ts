// Broadcasts (issue 25, broadcasts.md): the bot speaks first, to an audience, exactly once each.
// - broadcasts: one row per broadcast; `spec` is its JSON definition (behaviour, audience,
//   template…), `run` counts its runs (a repeating one runs again), `claimed_until`/`claimed_by`
//   is the lease of the node that drives it (any node of a PostgreSQL cluster may take it over
//   once the lease ran out), `notice` the `broadcast` webhook event still to deliver;
// - broadcast_recipients: one row per recipient and run, primary key (broadcast, run,
//   conversation): a recipient exists once. Its state moves pending → sent → delivered/failed, or
//   pending → skipped (with a reason); `sent` commits in the very transaction of the recipient's
//   turn, so no crash or second node can send it twice;
// - outbox.broadcast: the outbox rows that deliver a broadcast turn to its user, so that their
//   outcome reaches the recipient's counts (and an attempt a dead node left unfinished is not made
//   a second time: docs/broadcasts.md "Exactly once").
import type { Migration } from './migration.js';

const tables = (t: { big: string }) => `
CREATE TABLE broadcasts (
  id TEXT PRIMARY KEY,
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  spec TEXT NOT NULL,
  status TEXT NOT NULL,
  at ${t.big} NOT NULL,
  next_run_at ${t.big},
  run INTEGER NOT NULL,
  claimed_until ${t.big} NOT NULL,
  claimed_by TEXT,
  error TEXT,
  notice TEXT,
  notice_attempts INTEGER NOT NULL,
  notice_due ${t.big} NOT NULL,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL
);
CREATE INDEX broadcasts_bot ON broadcasts(bot_id, created_at);
CREATE INDEX broadcasts_due ON broadcasts(status, next_run_at);
CREATE TABLE broadcast_recipients (
  broadcast_id TEXT NOT NULL REFERENCES broadcasts(id) ON DELETE CASCADE,
  run INTEGER NOT NULL,
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  due_at ${t.big} NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  claimed_until ${t.big} NOT NULL,
  sent_at ${t.big},
  clicked_at ${t.big},
  PRIMARY KEY (broadcast_id, run, conversation_id)
);
CREATE INDEX broadcast_recipients_pending ON broadcast_recipients(broadcast_id, run, status, channel, conversation_id);
CREATE INDEX broadcast_recipients_conversation ON broadcast_recipients(conversation_id);
ALTER TABLE outbox ADD COLUMN broadcast TEXT;
`;

export const broadcasts: Migration = {
  version: 18,
  name: 'broadcasts',
  sqlite: tables({ big: 'INTEGER' }),
  postgres: tables({ big: 'BIGINT' }),
};
