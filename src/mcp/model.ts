// A bot's MCP servers (agents.md "MCP servers"): where they are, the headers sent to them (sealed
// at rest, never returned), the tools they listed last and why the last attempt failed.
import type { McpTool } from '../agents/tool-sources.js';

export type { McpTool };

export interface McpServerRecord {
  botId: string;
  name: string;
  url: string;
  /** null when none were given; decrypted only when read for a connection */
  headers: Record<string, string> | null;
  tools: McpTool[];
  /** when `tools` was listed (ms) */
  toolsAt: number;
  lastError: string | null;
  updatedAt: number;
}

/** Bounds of the MCP servers API and client (docs/agents.md "Secrets and MCP servers"). */
export const MCP_LIMITS = {
  /** servers per bot */
  perBot: 10,
  urlChars: 2048,
  /** headers per server, characters of one value, of all names and values together */
  headers: 20,
  headerValueChars: 4096,
  headersChars: 16_384,
  /** tools kept of one server's list, characters of a description, of one input schema as JSON */
  tools: 128,
  descriptionChars: 1024,
  schemaChars: 16_384,
  /** bytes read of any one answer of a server (a 100 MB answer or an endless stream is cut here) */
  answerBytes: 1024 * 1024,
  /** bytes of a tool's content text given to the model (agents.md) */
  resultBytes: 16 * 1024,
  /** characters of a LastError */
  errorChars: 300,
} as const;
