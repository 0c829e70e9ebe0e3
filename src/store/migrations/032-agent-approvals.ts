// Approvals of agents' tool calls (agents.md "Tools", issue 39): one row per call of an
// `approval: true` tool, with the model's arguments and the agent turn so far (`turn`, JSON) to go
// on from once decided. `status` moves from 'pending' once, by a conditional UPDATE, so two nodes
// deciding at the same time decide once. Rows hang off the conversation with ON DELETE CASCADE:
// forgetting a user (or retention deleting the conversation) deletes them with the rest.
import type { Migration } from './migration.js';

const sql = (t: { id: string; big: string }) => `
CREATE TABLE agent_approvals (
  id ${t.id},
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  bot_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  arguments TEXT NOT NULL,
  turn TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  decided_by TEXT,
  reason TEXT,
  at ${t.big} NOT NULL,
  decided_at ${t.big}
);
CREATE INDEX agent_approvals_bot ON agent_approvals(bot_id, status, id);
CREATE INDEX agent_approvals_conversation ON agent_approvals(conversation_id, id);
`;

export const agentApprovals: Migration = {
  version: 32,
  name: 'agent approvals',
  sqlite: sql({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' }),
  postgres: sql({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' }),
};
