// The `ai` and `agentModel` requests of a turn (understanding.md "AI steps", agents.md): the bot's
// provider (its own, else the server's), the conversation's last `history` stored messages between
// the instructions and the turn's own messages, one call. Made outside any transaction, like
// callApi; drive-turn.ts memoizes the answer so that a retried turn does not call again. An
// agent's call is refused (BUDGET) once the bot's agents used settings.ai.maxTokensPerBotDay.
import type { AgentMessage, AgentModelAnswer, AgentModelRequest, AgentToolSpec, AiAnswer, AiRequest, ReplyPart } from '../engine/types.js';
import type { AiProvider, ChatMessage, CompletionOptions, ToolChatMessage } from '../integrations/ai-client.js';
import type { BotRecord } from '../bots/model.js';
import type { AnswerSink } from './answer-stream.js';
import type { StoredMessage } from './model.js';

export interface AiStepDeps {
  /** the bot's provider, or null when neither the bot nor the server has one */
  provider(bot: BotRecord): Promise<AiProvider | null>;
  /** the last `limit` stored messages, oldest first */
  messages(conversationId: number, limit: number): Promise<StoredMessage[]>;
  complete(provider: AiProvider, messages: ChatMessage[], options: CompletionOptions): Promise<AiAnswer>;
  /** one call with tools (ai-client.ts chatWithTools) */
  completeWithTools?(provider: AiProvider, messages: ToolChatMessage[], tools: AgentToolSpec[], options: CompletionOptions): Promise<AgentModelAnswer>;
  /** the tokens the bot's agents used on `day` (days since the epoch) and the bot's daily budget */
  botTokens?: { tokensOf(botId: string, day: number): number; add(botId: string, day: number, tokens: number): void };
  allowPrivateNetwork: boolean;
  now?: () => number;
}

/** What an agent's model call may answer at most (about MAX_AI_ANSWER_BYTES). */
const AGENT_MAX_TOKENS = 4_096;
const DAY_MS = 86_400_000;

type Prepared = { provider: AiProvider; history: ChatMessage[] } | { status: 'NOT_CONFIGURED' | 'ERROR' };

export class AiSteps {
  constructor(private readonly deps: AiStepDeps) {}

  /** `stream`: where the answer's text goes while it arrives (a said reply of a bot that streams) */
  async answer(bot: BotRecord, conversationId: number | null, request: AiRequest, stream?: AnswerSink): Promise<AiAnswer> {
    const prepared = await this.prepare(bot, conversationId, request.history, request.instructions);
    if ('status' in prepared) return { status: prepared.status, text: '', tokens: 0 };
    // The current text is not stored yet (the turn commits after): it goes last, once.
    const messages: ChatMessage[] = [...prepared.history, { role: 'user', content: request.input }];
    const answer = await this.deps.complete(prepared.provider, messages, {
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      timeoutMs: request.timeoutMs,
      allowPrivateNetwork: this.deps.allowPrivateNetwork,
      ...(stream ? { onDelta: (text: string) => stream.push(text) } : {}),
    });
    stream?.end(answer.status === 'OK');
    return answer;
  }

  /** One model call of an agent turn: the stored history, then the turn so far (its user text, tool calls and results). */
  async agentAnswer(bot: BotRecord, conversationId: number | null, request: AgentModelRequest, budget: number | null, stream?: AnswerSink): Promise<AgentModelAnswer> {
    const none = (status: AgentModelAnswer['status']): AgentModelAnswer => ({ status, text: '', toolCalls: [], tokens: 0 });
    const day = Math.floor((this.deps.now?.() ?? Date.now()) / DAY_MS);
    if (budget !== null && this.deps.botTokens && this.deps.botTokens.tokensOf(bot.id, day) >= budget) return none('BUDGET');
    if (!this.deps.completeWithTools) return none('NOT_CONFIGURED');
    const prepared = await this.prepare(bot, conversationId, request.history, request.instructions);
    if ('status' in prepared) return none(prepared.status);
    const messages: ToolChatMessage[] = [...prepared.history, ...request.messages.map(toChatMessage)];
    const answer = await this.deps.completeWithTools(prepared.provider, messages, request.tools, {
      maxTokens: AGENT_MAX_TOKENS,
      temperature: null,
      timeoutMs: request.timeoutMs,
      allowPrivateNetwork: this.deps.allowPrivateNetwork,
      ...(stream ? { onDelta: (text: string) => stream.push(text) } : {}),
    });
    // a call that ends in tool calls said nothing: what it streamed (rarely any text) is taken back
    stream?.end(answer.status === 'OK' && answer.toolCalls.length === 0);
    this.deps.botTokens?.add(bot.id, day, answer.tokens);
    return answer;
  }

  /** The provider and the system message with the stored history; never throws. */
  private async prepare(bot: BotRecord, conversationId: number | null, limit: number, instructions: string): Promise<Prepared> {
    let provider: AiProvider | null;
    let stored: StoredMessage[];
    try {
      provider = await this.deps.provider(bot);
      if (provider === null) return { status: 'NOT_CONFIGURED' };
      stored = limit > 0 && conversationId !== null && conversationId > 0 ? await this.deps.messages(conversationId, limit) : [];
    } catch {
      return { status: 'ERROR' };
    }
    const history: ChatMessage[] = [];
    if (instructions.trim() !== '') history.push({ role: 'system', content: instructions });
    for (const message of stored) {
      const content = textOf(message.parts);
      if (content !== '') history.push({ role: message.direction === 'USER' ? 'user' : 'assistant', content });
    }
    return { provider, history };
  }
}

function toChatMessage(message: AgentMessage): ToolChatMessage {
  if (message.role === 'user') return message;
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  return {
    role: 'assistant',
    content: message.content,
    tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
  };
}

/** A stored message as the model reads it: the texts of its parts, one per line. */
function textOf(parts: readonly ReplyPart[]): string {
  return parts
    .map((p) => (typeof p.Text === 'string' ? p.Text.trim() : ''))
    .filter((t) => t !== '')
    .join('\n');
}
