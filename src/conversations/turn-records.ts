// What a user's turn writes besides the conversation itself, and the record a first message creates.
// Kept apart from user-turn.ts, which decides what the turn does.
import type { CompiledBot } from '../engine/compile.js';
import { newConversationState } from '../engine/state.js';
import type { AgentTraceStep, ApprovalAsked } from '../engine/types.js';
import type { Clock } from '../shared/clock.js';
import { DAY_MS } from '../shared/durations.js';
import type { BotRecord } from '../bots/model.js';
import type { TurnWrites } from './port.js';
import { LIMITS } from './limits.js';
import { recordBroadcastClick, type broadcastClick } from './broadcast-rules.js';
import { STATE_BOT } from './control.js';
import type { ConversationRecord, ShareMode, ShareRecord } from './model.js';
import type { UserMessage } from './user-message.js';

/** The update ran already (another node or request committed it first); nothing was written. */
export class DuplicateInbound extends Error {}

export interface TurnRecordDeps {
  clock: Clock;
  shares: { newShare(conversationId: number, mode: ShareMode, hours: number): ShareRecord };
}

/** What of a user's message (user-message.ts) is recorded with its turn. */
export type RecordedInput = Pick<UserMessage, 'inbound' | 'broadcastButton'>;

/** What one turn gathered that must commit with it (see writeTurnRecords). */
export interface TurnRecords {
  newShares: Map<string, { mode: ShareMode; hours: number }>;
  click: ReturnType<typeof broadcastClick>;
  asked: boolean[];
  agent: { notes: string[]; traces: AgentTraceStep[][]; approvals: ApprovalAsked[] };
}

/** True when the turn writes nothing more, so the store keeps its fast path (no callback). */
export function nothingToRecord(input: RecordedInput, records: TurnRecords): boolean {
  const { newShares, click, asked, agent } = records;
  return !input.inbound && newShares.size === 0 && !click && !input.broadcastButton && asked.length === 0 && agent.notes.length + agent.traces.length + agent.approvals.length === 0;
}

/**
 * What a turn writes besides the conversation: its update id, the shares it made, a broadcast's
 * click, and the questions it asked of the knowledge (answered or not) in the bot's count of the
 * day, so that a turn decided again after losing a race is counted once, as committed.
 */
export async function writeTurnRecords(deps: TurnRecordDeps, tx: TurnWrites, bot: BotRecord, conversationId: number, input: RecordedInput, records: TurnRecords): Promise<void> {
  const now = deps.clock.now();
  await recordInbound(deps.clock, tx, conversationId, input);
  if (records.click) await recordBroadcastClick(tx, conversationId, records.click, now);
  if (input.broadcastButton) await tx.broadcasts.noteClick(input.broadcastButton.broadcastId, conversationId, now);
  for (const [code, share] of records.newShares) await tx.shares.insert({ ...deps.shares.newShare(conversationId, share.mode, share.hours), code });
  const answered = records.asked.filter(Boolean).length;
  if (records.asked.length > 0) await tx.analytics.countKnowledgeQuestions(bot.id, Math.floor(now / DAY_MS), answered, records.asked.length - answered);
  // an agent's hand-over reason, signed by the bot (agents.md "Tools")
  for (const text of records.agent.notes) await tx.notes.insert({ conversationId, author: bot.name, text, createdAt: now }, null, LIMITS.notesPerConversation);
  for (const steps of records.agent.traces) await tx.agentTraces.add(conversationId, now, steps, LIMITS.agentTracesPerConversation);
  for (const asked of records.agent.approvals) {
    await tx.agentApprovals.add({ botId: bot.id, conversationId, callId: asked.callId, tool: asked.tool, arguments: asked.arguments, turn: asked.messages, at: now });
  }
}

/** A platform update is run once: its key commits with the turn or the turn rolls back. */
export async function recordInbound(clock: Clock, tx: TurnWrites, conversationId: number, input: RecordedInput): Promise<void> {
  const inbound = input.inbound;
  if (!inbound) return;
  if (!(await tx.channels.markSeen(inbound.channelId, inbound.key, conversationId, clock.now()))) throw new DuplicateInbound();
  if (inbound.messageId) await tx.channels.noteLastInbound(conversationId, inbound.messageId);
  if (inbound.replyAddress) await tx.channels.noteReplyAddress(conversationId, inbound.replyAddress);
}

/** The conversation a user's first message creates, at the bot's start. */
export function newConversationRecord(clock: Clock, bot: BotRecord, compiled: CompiledBot, userId: string, channel: string): ConversationRecord {
  const now = clock.now();
  const state = newConversationState(compiled, { user_id: userId, channel, creation_date: clock.iso(now) });
  return {
    id: 0,
    botId: bot.id,
    userId,
    channel,
    state,
    controlState: STATE_BOT,
    operator: null,
    banExpiration: null,
    banMessage: null,
    forgetting: false,
    revision: 0,
    createdAt: now,
    updatedAt: now,
    controlChangedAt: now,
  };
}
