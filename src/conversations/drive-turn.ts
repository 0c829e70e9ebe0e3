// Drives the pure engine: answers its requests (HTTP calls, share URLs) with real I/O, outside any
// database transaction. Answers are remembered by request so that a turn retried after losing a
// write race (another node saved the conversation first) never repeats an external call.
import type { CompiledBot } from '../engine/compile.js';
import { runTurn } from '../engine/run-turn.js';
import { createHash } from 'node:crypto';
import type {
  AgentModelAnswer,
  AgentModelRequest,
  AiAnswer,
  AiRequest,
  ClassifyAnswer,
  KnowledgeReply,
  KnowledgeRequest,
  ClassifyRequest,
  ConversationState,
  EngineContext,
  EngineRequest,
  McpCallAnswer,
  McpCallRequest,
  McpToolsAnswer,
  McpToolsRequest,
  RequestAnswer,
  TurnInput,
  TurnOutcome,
} from '../engine/types.js';

export interface RequestHandlers {
  http(request: Extract<EngineRequest, { kind: 'http' }>): Promise<RequestAnswer>;
  shareUrl(request: Extract<EngineRequest, { kind: 'shareUrl' }>): Promise<string>;
  /** the live version's stored model scores the text (no training: that happened at publish) */
  classify(request: ClassifyRequest): Promise<ClassifyAnswer>;
  /** one call to the bot's AI provider; never throws (TIMEOUT / ERROR / NOT_CONFIGURED) */
  ai(request: AiRequest): Promise<AiAnswer>;
  /** a question to the bot's knowledge; never throws (ERROR) */
  knowledge(request: KnowledgeRequest): Promise<KnowledgeReply>;
  /** one model call of an agent turn, with tools (agent-model.ts); never throws */
  agentModel(request: AgentModelRequest): Promise<AgentModelAnswer>;
  /** the tools of the bot's MCP servers an agent names; never throws (servers down are `unavailable`) */
  mcpTools(request: McpToolsRequest): Promise<McpToolsAnswer>;
  /** an MCP tools/call; never throws (ok: false) */
  mcpCall(request: McpCallRequest): Promise<McpCallAnswer>;
}

/** Answers already obtained in an earlier attempt of the same turn, in request order. */
export type AnswerMemo = Map<string, RequestAnswer>;

export async function driveTurn(bot: CompiledBot, state: ConversationState, input: TurnInput, ctx: EngineContext, handlers: RequestHandlers, memo: AnswerMemo): Promise<TurnOutcome> {
  const turn = runTurn(bot, state, input, ctx);
  let step = turn.next();
  let index = 0;
  while (!step.done) {
    const request = step.value;
    // The timeout depends on the time left in the turn, so it is not part of what identifies a call.
    // Hashed: an agent's later model calls carry the whole turn so far (up to megabytes of tool results).
    const key = `${index++}:${createHash('sha256')
      .update(JSON.stringify({ ...request, timeoutMs: undefined }))
      .digest('base64')}`;
    let answer = memo.get(key);
    if (answer === undefined) {
      answer = await answerOf(request, handlers);
      memo.set(key, answer);
    }
    step = turn.next(answer);
  }
  return step.value;
}

function answerOf(request: EngineRequest, handlers: RequestHandlers): Promise<RequestAnswer> {
  switch (request.kind) {
    case 'http':
      return handlers.http(request);
    case 'shareUrl':
      return handlers.shareUrl(request);
    case 'classify':
      return handlers.classify(request);
    case 'ai':
      return handlers.ai(request);
    case 'knowledge':
      return handlers.knowledge(request);
    case 'agentModel':
      return handlers.agentModel(request);
    case 'mcpTools':
      return handlers.mcpTools(request);
    case 'mcpCall':
      return handlers.mcpCall(request);
  }
}
