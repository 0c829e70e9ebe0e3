// What the engine asks of language models and MCP servers, and what comes back (understanding.md
// "AI steps", agents.md): an agent's model call with its tools, the tools of the bot's MCP servers
// and a call of one, and the trace of an agent turn. Part of the engine's contract (types.ts, which
// re-exports all of it), kept apart so that each file reads at once.

export type AiStatus = 'OK' | 'TIMEOUT' | 'ERROR' | 'NOT_CONFIGURED';

/** A tool as the model is told of it (an OpenAI function tool). */
export interface AgentToolSpec {
  name: string;
  description: string;
  /** an object JSON Schema */
  parameters: Record<string, unknown>;
}

/** A tool call the model asked for; `arguments` is the model's JSON text, unparsed. */
export interface AgentToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The messages of the turn so far, after the stored history (agents.md "One agent turn"). */
export type AgentMessage = { role: 'user'; content: string } | { role: 'assistant'; content: string | null; toolCalls: AgentToolCall[] } | { role: 'tool'; toolCallId: string; content: string };

/**
 * One model call of an agent turn, with tools. The caller adds the last `history` stored messages
 * between the instructions and `messages`, and refuses the call past the bot's daily token budget.
 */
export interface AgentModelRequest {
  kind: 'agentModel';
  instructions: string;
  history: number;
  messages: AgentMessage[];
  tools: AgentToolSpec[];
  timeoutMs: number;
}

export interface AgentModelAnswer {
  /** BUDGET: the bot's tokens of the day are spent, the model was not called */
  status: AiStatus | 'BUDGET';
  text: string;
  toolCalls: AgentToolCall[];
  tokens: number;
}

/** The tools of the bot's MCP servers an agent names (agents/tool-sources.ts answers it). */
export interface McpToolsRequest {
  kind: 'mcpTools';
  servers: string[];
}

export interface McpToolsAnswer {
  tools: Array<{ server: string; name: string; description: string; parameters: Record<string, unknown> }>;
  unavailable: Array<{ server: string; error: string }>;
}

/** An MCP `tools/call`. */
export interface McpCallRequest {
  kind: 'mcpCall';
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  timeoutMs: number;
}

export interface McpCallAnswer {
  ok: boolean;
  text: string;
}

/** One step of an agent turn: a model call or a tool call (arguments and results cut to 2 KB). */
export interface AgentTraceStep {
  Kind: 'model' | 'tool';
  Name?: string;
  Arguments?: string;
  Status: string;
  Ms: number;
  Tokens?: number;
  Error?: string;
  Result?: string;
}

/**
 * An agent's call of an `approval: true` tool, not made (agents.md "Tools"): what the caller
 * stores as the pending approval, and what it hands back once a colleague decided. `messages` is
 * the agent turn so far after the stored history (the user's text is stored in the history).
 */
export interface ApprovalAsked {
  kind: 'approvalAsked';
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  messages: AgentMessage[];
}

/** A pending approval decided: the agent waiting on `callId` makes the call (with `arguments`) or reads the refusal. */
export interface ApprovalDecision {
  callId: string;
  tool: string;
  approved: boolean;
  arguments: Record<string, unknown>;
  reason: string;
  messages: AgentMessage[];
}
