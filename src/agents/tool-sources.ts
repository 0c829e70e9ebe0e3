// What an agent turn (agents.md) needs from the world beyond the engine, as narrow ports so the
// agent loop (conversations/) and what answers it (the MCP client in mcp/, the secrets store) are
// built and tested apart. The conversation core answers the engine's agent requests through these;
// wiring hands it the implementations.

/** A tool an MCP server offers (from `tools/list`), as the server describes it. */
export interface McpTool {
  /** the server's own tool name (offered to the model as `<server>__<name>`) */
  name: string;
  description: string;
  /** the tool's `inputSchema` (an object JSON Schema) */
  parameters: Record<string, unknown>;
}

/** The tools of the servers an agent names, for one turn. */
export interface McpToolsForTurn {
  tools: Array<{ server: string; tool: McpTool }>;
  /** servers left out of this turn (unknown name, down, not MCP), with why; their LastError says the same */
  unavailable: Array<{ server: string; error: string }>;
}

/** A `tools/call` result as the model reads it: the content's text, cut to 16 KB. */
export interface McpCallResult {
  /** false when the server answered `isError`, failed, timed out or is unknown */
  ok: boolean;
  text: string;
}

/** The bot's MCP servers (agents.md "MCP servers"): tool lists cached per bot, calls made with the stored headers. */
export interface McpToolSource {
  toolsFor(botId: string, servers: readonly string[]): Promise<McpToolsForTurn>;
  call(botId: string, server: string, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<McpCallResult>;
}
