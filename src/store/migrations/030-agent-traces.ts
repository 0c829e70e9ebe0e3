// The trace of agent turns (agents.md "Trace", issue 39): one row per agent turn with its steps as
// JSON (each argument and result already cut to 2 KB by the engine). Rows hang off the
// conversation with ON DELETE CASCADE, so forgetting a user deletes them with the rest; a
// conversation keeps its newest ones only (LIMITS.agentTracesPerConversation).
import type { Migration } from './migration.js';

const sql = (t: { id: string; big: string }) => `
CREATE TABLE agent_traces (
  id ${t.id},
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  at ${t.big} NOT NULL,
  steps TEXT NOT NULL
);
CREATE INDEX agent_traces_conversation ON agent_traces(conversation_id, id);
`;

export const agentTraces: Migration = {
  version: 30,
  name: 'agent traces',
  sqlite: sql({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' }),
  postgres: sql({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' }),
};
