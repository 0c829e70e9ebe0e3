// Agents' secrets and MCP servers (agents.md "Secrets", "MCP servers"): per bot, the values and
// headers sealed with the server key (never in bot files, versions or clones, which live in other
// tables), gone with their bot (ON DELETE CASCADE).
import type { Migration } from './migration.js';

const tables = (t: { big: string }) => `
CREATE TABLE bot_secrets (
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  hosts TEXT NOT NULL,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL,
  PRIMARY KEY (bot_id, name)
);
CREATE TABLE bot_mcp_servers (
  bot_id TEXT NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  headers TEXT,
  tools TEXT NOT NULL,
  tools_at ${t.big} NOT NULL,
  last_error TEXT,
  created_at ${t.big} NOT NULL,
  updated_at ${t.big} NOT NULL,
  PRIMARY KEY (bot_id, name)
);
`;

export const agentSecretsMcp: Migration = { version: 29, name: 'agent secrets and MCP servers', sqlite: tables({ big: 'INTEGER' }), postgres: tables({ big: 'BIGINT' }) };
