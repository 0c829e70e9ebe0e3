// Approvals of agents' tool calls (agents.md "Tools"): the list an account or an operator reads,
// and the decision. A decision is recorded once by one conditional update (status still
// 'pending'), so two nodes deciding at the same time decide once; only then is the call made (or
// refused) and the agent goes on, its answer delivered like an operator message (approval-turn.ts).
import type { BotRecord } from '../bots/model.js';
import type { CompiledBot } from '../engine/compiled.js';
import { check, MAX_ARGUMENTS_BYTES } from '../engine/actions/agent/arguments.js';
import type { ApprovalDecision } from '../engine/types.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { utf8Bytes } from '../shared/utf8.js';
import type { ApprovalDecisionRow, ApprovalRecord, ConversationRecord } from './model.js';

export const DEFAULT_APPROVAL_LIMIT = 50;
export const MAX_APPROVAL_LIMIT = 200;
/** A decision's reason, as kept and told to the model (docs/limits.md). */
export const MAX_REASON_CHARS = 1000;

/** What approvals need of the store. */
export interface ApprovalStorage {
  agentApprovals: {
    list(botId: string, limit: number, userId?: string): Promise<ApprovalRecord[]>;
    byId(botId: string, id: number): Promise<ApprovalRecord | null>;
    pendingOf(conversationId: number, limit: number): Promise<ApprovalRecord[]>;
    decide(botId: string, id: number, decision: ApprovalDecisionRow): Promise<boolean>;
  };
}

export interface ApprovalDeps {
  store: ApprovalStorage;
  clock: Clock;
  live: (bot: BotRecord) => Promise<CompiledBot>;
  /** the parameters of an MCP tool as its server lists them (null when unknown) */
  mcpParameters: (botId: string, server: string, tool: string) => Promise<unknown>;
  /** goes on with the agent that waits on the approval (ConversationService.resumeAgent) */
  resume: (bot: BotRecord, approval: ApprovalRecord, decision: ApprovalDecision) => Promise<void>;
}

export interface ApprovalView {
  ApprovalId: string;
  UserId: string;
  Tool: string;
  Arguments: Record<string, unknown>;
  Status: ApprovalRecord['status'];
  At: string;
  DecidedBy?: string;
  Reason?: string;
}

export interface DecisionInput {
  approve: boolean;
  arguments?: Record<string, unknown>;
  reason?: string;
  /** "api" for the account's token, the operator's e-mail in the console */
  by: string;
}

export class AgentApprovals {
  constructor(private readonly deps: ApprovalDeps) {}

  /** The bot's approvals, or one conversation's (`userId`): pending first. */
  async list(bot: BotRecord, limit: number, userId?: string): Promise<{ Result: ApprovalView[] }> {
    return { Result: (await this.deps.store.agentApprovals.list(bot.id, limit, userId)).map((a) => this.view(a)) };
  }

  /** The pending calls of one conversation (the console shows them in it). */
  async pendingOf(conversation: ConversationRecord): Promise<ApprovalView[]> {
    return (await this.deps.store.agentApprovals.pendingOf(conversation.id, DEFAULT_APPROVAL_LIMIT)).map((a) => this.view(a));
  }

  async decide(bot: BotRecord, approvalId: string, input: DecisionInput): Promise<ApprovalView> {
    const id = /^[1-9]\d{0,14}$/.test(approvalId) ? Number(approvalId) : null;
    const approval = id === null ? null : await this.deps.store.agentApprovals.byId(bot.id, id);
    if (approval === null) throw new AppError('APPROVAL_NOT_FOUND');
    if (approval.status !== 'pending') throw new AppError('APPROVAL_DECIDED');
    const args = input.approve && input.arguments !== undefined ? await this.checked(bot, approval, input.arguments) : approval.arguments;
    const reason = input.approve ? null : (input.reason ?? '').trim().slice(0, MAX_REASON_CHARS) || null;
    const status = input.approve ? 'approved' : 'rejected';
    const at = this.deps.clock.now();
    // the one place a decision is made: of two deciders (nodes, requests) one changes the row
    if (!(await this.deps.store.agentApprovals.decide(bot.id, approval.id, { status, decidedBy: input.by, reason, arguments: args, at }))) throw new AppError('APPROVAL_DECIDED');
    const decided: ApprovalRecord = { ...approval, status, decidedBy: input.by, reason, arguments: args, decidedAt: at };
    await this.deps.resume(bot, decided, { callId: approval.callId, tool: approval.tool, approved: input.approve, arguments: args, reason: reason ?? '', messages: approval.turn });
    return this.view(decided);
  }

  /** Edited arguments are checked as the model's are: against the tool's JSON Schema. */
  private async checked(bot: BotRecord, approval: ApprovalRecord, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (utf8Bytes(JSON.stringify(args)) > MAX_ARGUMENTS_BYTES) throw new AppError('APPROVAL_ARGUMENTS_INVALID', `Arguments are over ${MAX_ARGUMENTS_BYTES} bytes of JSON.`, { Field: 'Arguments' });
    const schema = await this.parametersOf(bot, approval.tool);
    const result = check(args, schema ?? { type: 'object' });
    // the check says "arguments do not fit: /order must …": capitalised as a sentence of its own
    if (!result.ok) throw new AppError('APPROVAL_ARGUMENTS_INVALID', `${result.error.charAt(0).toUpperCase()}${result.error.slice(1)}.`, { Field: 'Arguments' });
    return args;
  }

  /** The tool's parameters: an `http` tool's from the live bot, an MCP tool's from its server. */
  private async parametersOf(bot: BotRecord, tool: string): Promise<unknown> {
    const split = tool.indexOf('__');
    if (split > 0) return this.deps.mcpParameters(bot.id, tool.slice(0, split), tool.slice(split + 2));
    const compiled = await this.deps.live(bot);
    for (const { action } of compiled.actionsById.values()) {
      if (action.type !== 'agent' || !Array.isArray(action.tools)) continue;
      const found = (action.tools as Array<Record<string, unknown>>).find((t) => t?.type === 'http' && t.name === tool);
      if (found) return found.parameters;
    }
    return null;
  }

  private view(a: ApprovalRecord): ApprovalView {
    return {
      ApprovalId: String(a.id),
      UserId: a.userId,
      Tool: a.tool,
      Arguments: a.arguments,
      Status: a.status,
      At: this.deps.clock.iso(a.at),
      ...(a.decidedBy !== null ? { DecidedBy: a.decidedBy } : {}),
      ...(a.reason !== null ? { Reason: a.reason } : {}),
    };
  }
}
