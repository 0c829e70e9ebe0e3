// The storage the MCP servers use (store/mcp-servers.ts on SQLite and PostgreSQL): one row per bot
// and name, headers sealed with the server key and bound to the row's URL.
import type { McpServerRecord, McpTool } from './model.js';

export interface McpStorage {
  mcpServers: {
    byBot(botId: string): Promise<McpServerRecord[]>;
    get(botId: string, name: string): Promise<McpServerRecord | null>;
    /** inserts or replaces the server of that name, with the tools its connect listed */
    put(record: Omit<McpServerRecord, 'lastError' | 'toolsAt'>, now: number): Promise<void>;
    /** a later listing (LastError cleared) */
    noteTools(botId: string, name: string, tools: McpTool[], at: number): Promise<void>;
    noteError(botId: string, name: string, error: string): Promise<void>;
    remove(botId: string, name: string): Promise<boolean>;
  };
}
