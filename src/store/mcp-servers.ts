// A bot's MCP servers (agents.md "MCP servers"). Headers are sealed with the server key and bound
// to the bot, the name and the URL: a ciphertext cannot move to another row, and headers can never
// be read for a URL they were not given for. Deleted with the bot.
import type { SecretBox } from '../auth/secret-box.js';
import type { McpServerRecord, McpTool } from '../mcp/model.js';
import type { Queryable } from './driver.js';

interface Row {
  bot_id: string;
  name: string;
  url: string;
  headers: string | null;
  tools: string;
  tools_at: number;
  last_error: string | null;
  updated_at: number;
}

const contextOf = (botId: string, name: string, url: string) => `mcp:${botId}:${name}:${url}`;

export function mcpServerRepository(db: Queryable, secrets: SecretBox) {
  const toRecord = (r: Row): McpServerRecord => ({
    botId: r.bot_id,
    name: r.name,
    url: r.url,
    headers: r.headers === null ? null : (JSON.parse(secrets.decrypt(r.headers, contextOf(r.bot_id, r.name, r.url))) as Record<string, string>),
    tools: JSON.parse(r.tools) as McpTool[],
    toolsAt: Number(r.tools_at),
    lastError: r.last_error,
    updatedAt: Number(r.updated_at),
  });
  return {
    async byBot(botId: string): Promise<McpServerRecord[]> {
      return (await db.all<Row>('SELECT * FROM bot_mcp_servers WHERE bot_id = $1 ORDER BY name', [botId])).map(toRecord);
    },
    async get(botId: string, name: string): Promise<McpServerRecord | null> {
      const row = await db.get<Row>('SELECT * FROM bot_mcp_servers WHERE bot_id = $1 AND name = $2', [botId, name]);
      return row ? toRecord(row) : null;
    },
    async put(s: Omit<McpServerRecord, 'lastError' | 'toolsAt'>, now: number): Promise<void> {
      const headers = s.headers === null ? null : secrets.encrypt(JSON.stringify(s.headers), contextOf(s.botId, s.name, s.url));
      await db.run(
        `INSERT INTO bot_mcp_servers (bot_id, name, url, headers, tools, tools_at, last_error, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, NULL, $6, $6)
         ON CONFLICT (bot_id, name) DO UPDATE SET url = $3, headers = $4, tools = $5, tools_at = $6, last_error = NULL, updated_at = $6`,
        [s.botId, s.name, s.url, headers, JSON.stringify(s.tools), now],
      );
    },
    async noteTools(botId: string, name: string, tools: McpTool[], at: number): Promise<void> {
      await db.run('UPDATE bot_mcp_servers SET tools = $3, tools_at = $4, last_error = NULL WHERE bot_id = $1 AND name = $2', [botId, name, JSON.stringify(tools), at]);
    },
    async noteError(botId: string, name: string, error: string): Promise<void> {
      await db.run('UPDATE bot_mcp_servers SET last_error = $3 WHERE bot_id = $1 AND name = $2', [botId, name, error]);
    },
    async remove(botId: string, name: string): Promise<boolean> {
      return (await db.run('DELETE FROM bot_mcp_servers WHERE bot_id = $1 AND name = $2', [botId, name])) > 0;
    },
  };
}
