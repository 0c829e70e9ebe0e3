// The trace of a conversation's agent turns (agents.md "Trace"): the latest turns, newest first,
// each with its steps, for the account's API and the operators' console (conversation data).
import type { BotRecord } from '../bots/model.js';
import type { AgentTraceRecord, ConversationRecord } from './model.js';
import type { AgentTraceStep } from '../engine/types.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';

export const DEFAULT_TRACE_LIMIT = 20;
export const MAX_TRACE_LIMIT = 100;

/** What the traces need of the store. */
export interface TraceReads {
  conversations: { byUser(botId: string, userId: string): Promise<ConversationRecord | null> };
  agentTraces: { latest(conversationId: number, limit: number): Promise<AgentTraceRecord[]> };
}

export interface TraceList {
  Result: Array<{ At: string; Steps: AgentTraceStep[] }>;
}

export class AgentTraces {
  constructor(
    private readonly store: TraceReads,
    private readonly clock: Clock,
  ) {}

  async latest(bot: BotRecord, userId: string, limit: number): Promise<TraceList> {
    const conversation = await this.store.conversations.byUser(bot.id, userId);
    if (!conversation || conversation.forgetting) throw new AppError('CONVERSATION_NOT_FOUND');
    return this.of(conversation, limit);
  }

  /** A conversation already found (the console finds it for the operator's account). */
  async of(conversation: ConversationRecord, limit: number): Promise<TraceList> {
    const traces = await this.store.agentTraces.latest(conversation.id, limit);
    return { Result: traces.map((t) => ({ At: this.clock.iso(t.at), Steps: t.steps })) };
  }
}
