// The `ai` requests of a turn (understanding.md "AI steps"): the bot's provider (its own, else the
// server's), the conversation's last `history` stored messages between the instructions and the
// input, one call. Made outside any transaction, like callApi; drive-turn.ts memoizes the answer
// so that a retried turn does not call again.
import type { AiAnswer, AiRequest, ReplyPart } from '../engine/types.js';
import type { AiProvider, ChatMessage, CompletionOptions } from '../integrations/ai-client.js';
import type { BotRecord } from '../bots/model.js';
import type { StoredMessage } from './model.js';

export interface AiStepDeps {
  /** the bot's provider, or null when neither the bot nor the server has one */
  provider(bot: BotRecord): Promise<AiProvider | null>;
  /** the last `limit` stored messages, oldest first */
  messages(conversationId: number, limit: number): Promise<StoredMessage[]>;
  complete(provider: AiProvider, messages: ChatMessage[], options: CompletionOptions): Promise<AiAnswer>;
  allowPrivateNetwork: boolean;
}

export class AiSteps {
  constructor(private readonly deps: AiStepDeps) {}

  async answer(bot: BotRecord, conversationId: number | null, request: AiRequest): Promise<AiAnswer> {
    let provider: AiProvider | null;
    let history: StoredMessage[];
    try {
      provider = await this.deps.provider(bot);
      if (provider === null) return { status: 'NOT_CONFIGURED', text: '', tokens: 0 };
      history = request.history > 0 && conversationId !== null && conversationId > 0 ? await this.deps.messages(conversationId, request.history) : [];
    } catch {
      return { status: 'ERROR', text: '', tokens: 0 };
    }
    const messages: ChatMessage[] = [];
    if (request.instructions.trim() !== '') messages.push({ role: 'system', content: request.instructions });
    for (const message of history) {
      const content = textOf(message.parts);
      if (content !== '') messages.push({ role: message.direction === 'USER' ? 'user' : 'assistant', content });
    }
    // The current text is not stored yet (the turn commits after): it goes last, once.
    messages.push({ role: 'user', content: request.input });
    return this.deps.complete(provider, messages, {
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      timeoutMs: request.timeoutMs,
      allowPrivateNetwork: this.deps.allowPrivateNetwork,
    });
  }
}

/** A stored message as the model reads it: the texts of its parts, one per line. */
function textOf(parts: readonly ReplyPart[]): string {
  return parts
    .map((p) => (typeof p.Text === 'string' ? p.Text.trim() : ''))
    .filter((t) => t !== '')
    .join('\n');
}
