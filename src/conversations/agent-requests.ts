// The requests only agents make (agents.md), answered for one turn of one bot: the model call
// with tools (ai-step.ts), and the tools of the bot's MCP servers through the McpToolSource port
// (agents/tool-sources.ts; wiring hands the MCP client in). Never throw: a failure is an answer.
import type { McpToolSource } from '../agents/tool-sources.js';
import type { BotRecord } from '../bots/model.js';
import type { CompiledBot } from '../engine/compiled.js';
import type { AgentModelAnswer, AgentModelRequest, McpCallAnswer, McpToolsAnswer } from '../engine/types.js';
import type { AnswerSink } from './answer-stream.js';
import type { RequestHandlers } from './drive-turn.js';

export interface AgentRequestDeps {
  /** answers an agent's model call (ai-step.ts agentAnswer); absent: NOT_CONFIGURED */
  agentModel?: (bot: BotRecord, conversationId: number | null, request: AgentModelRequest, botBudget: number | null, stream?: AnswerSink) => Promise<AgentModelAnswer>;
  /** the bot's MCP servers; absent: no server is known */
  mcp?: McpToolSource;
}

type AgentHandlers = Pick<RequestHandlers, 'agentModel' | 'mcpTools' | 'mcpCall'>;

/** `stream`: a sink for one model call's text as it arrives (agents.md "Streaming"), when the bot streams */
export function agentHandlers(deps: AgentRequestDeps, bot: BotRecord, compiled: CompiledBot, conversationId: number | null, stream?: () => AnswerSink | undefined): AgentHandlers {
  const budget = compiled.source.settings?.ai?.maxTokensPerBotDay;
  const botBudget = typeof budget === 'number' && Number.isFinite(budget) ? budget : null;
  return {
    agentModel: async (request) => {
      if (!deps.agentModel) return { status: 'NOT_CONFIGURED', text: '', toolCalls: [], tokens: 0 };
      return deps.agentModel(bot, conversationId, request, botBudget, stream?.()).catch((): AgentModelAnswer => ({ status: 'ERROR', text: '', toolCalls: [], tokens: 0 }));
    },
    mcpTools: async (request): Promise<McpToolsAnswer> => {
      if (!deps.mcp) return { tools: [], unavailable: request.servers.map((server) => ({ server, error: 'no such MCP server' })) };
      try {
        const found = await deps.mcp.toolsFor(bot.id, request.servers);
        return {
          tools: found.tools.map(({ server, tool }) => ({ server, name: tool.name, description: tool.description, parameters: tool.parameters })),
          unavailable: found.unavailable,
        };
      } catch (error) {
        return { tools: [], unavailable: request.servers.map((server) => ({ server, error: error instanceof Error ? error.message : String(error) })) };
      }
    },
    mcpCall: async (request): Promise<McpCallAnswer> => {
      if (!deps.mcp) return { ok: false, text: 'no such MCP server' };
      return deps.mcp.call(bot.id, request.server, request.tool, request.arguments, request.timeoutMs).catch(() => ({ ok: false, text: 'the call failed' }));
    },
  };
}
