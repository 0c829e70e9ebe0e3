// The turn that goes on after a colleague decided an agent's approval (agents.md "Tools"): the
// engine hands the decision to the agent that waits on that call, which makes the call (or reads
// the refusal) and asks the model again. What it says is a BOT message pushed on the
// conversation's channel, as an operator's message is (PENDING, webhook, widget, platform).
import type { BotRecord } from '../bots/model.js';
import type { CompiledBot } from '../engine/compile.js';
import { copyState } from '../engine/state.js';
import type { ApprovalDecision } from '../engine/types.js';
import { AppError } from '../shared/errors.js';
import { driveTurn, type AnswerMemo } from './drive-turn.js';
import { clampFlowState } from './limits.js';
import type { ApprovalRecord, ConversationRecord, ShareMode } from './model.js';
import { replyOf } from './reply.js';
import { nothingToRecord, writeTurnRecords, type RecordedInput } from './turn-records.js';
import type { TurnRunnerDeps, UserTurn } from './user-turn.js';

const NO_INPUT: RecordedInput = {};

export class ApprovalTurn {
  constructor(
    private readonly deps: TurnRunnerDeps,
    private readonly userTurn: UserTurn,
  ) {}

  async run(bot: BotRecord, compiled: CompiledBot, approval: ApprovalRecord, decision: ApprovalDecision): Promise<void> {
    const memo: AnswerMemo = new Map();
    const newShares = new Map<string, { mode: ShareMode; hours: number }>();
    await this.deps.turns.run(bot, approval.userId, async (current) => {
      if (!current || current.id !== approval.conversationId) throw new AppError('CONVERSATION_NOT_FOUND');
      const handlers = this.userTurn.handlers(bot, compiled, current.id, newShares);
      const outcome = await driveTurn(compiled, copyState(current.state), { kind: 'approval', decision }, this.userTurn.engineContext(), handlers, memo);
      const next: ConversationRecord = { ...current, state: outcome.state };
      clampFlowState(next.state);
      const { effects, parts } = outcome;
      Object.assign(next, this.userTurn.applyControl(next, effects));
      const reply = replyOf(next, parts, outcome.enableUserChat, this.deps.clock);
      const records = {
        newShares,
        click: null,
        asked: effects.flatMap((e) => (e.kind === 'knowledgeAsked' ? [e.answered] : [])),
        agent: {
          notes: effects.flatMap((e) => (e.kind === 'note' ? [e.text] : [])),
          traces: effects.flatMap((e) => (e.kind === 'agentTrace' ? [e.steps] : [])),
          approvals: effects.flatMap((e) => (e.kind === 'approvalAsked' ? [e] : [])),
        },
      };
      return {
        save: next,
        messages: parts.length > 0 ? [{ direction: 'BOT' as const, parts, pushed: true, enableUserChat: outcome.enableUserChat, creation: reply.Creation }] : [],
        usage: { messages: 0, replies: parts.length > 0 ? 1 : 0, notifications: 0, apiCalls: outcome.apiCalls, aiTokens: outcome.aiTokens },
        alsoWrite: nothingToRecord(NO_INPUT, records) ? undefined : (tx, conversationId) => writeTurnRecords(this.deps, tx, bot, conversationId, NO_INPUT, records),
        afterCommit: (saved) => this.userTurn.afterCommit(saved, effects),
        reply: undefined,
      };
    });
  }
}
