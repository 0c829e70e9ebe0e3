// THE conversation use-case: what a conversation can undergo, whatever the channel or the console
// asks. Every channel adapter (custom, web, and the messaging platforms to come) and the operator
// console call these intents; none of them commits a conversation itself: the only committer is
// the turn pipeline (turns.ts).
import crypto from 'node:crypto';
import type { LiveBots } from '../bots/live.js';
import type { BotRecord } from '../bots/model.js';
import type { CompiledBot } from '../engine/compile.js';
import { copyState } from '../engine/state.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ConversationStorage } from './port.js';
import { chattable, liftEndedBan } from './control-machine.js';
import { parseButtonPayload } from './broadcast-message.js';
import { BroadcastTurn, type BroadcastRecipientTurn, type BroadcastTurnOutcome } from './broadcast-turn.js';
import { injectedParts } from './inject.js';
import { applyRequestValues, assertPartsDepth, assertWritableVariables, LIMITS, type VariableFields } from './limits.js';
import type { ApprovalRecord, ConversationRecord, Direction } from './model.js';
import { ApprovalTurn } from './approval-turn.js';
import type { ApprovalDecision } from '../engine/types.js';
import { replyOf, replyWithPartsJson, type ChatReply } from './reply.js';
import type { ConversationTurns } from './turns.js';
import { UserTurn, type TurnRunnerDeps, type UserMessage } from './user-turn.js';
import type { VariableUpdate } from './values.js';

export type { ChatReply, UserMessage };

export interface ValueChanges {
  variables: VariableUpdate[];
  tags: string[];
  dropTags: string[];
}

const NO_CHANGES: ValueChanges = { variables: [], tags: [], dropTags: [] };

export type ConversationServiceDeps = TurnRunnerDeps & { store: ConversationStorage; live: Pick<LiveBots, 'get'>; clock: Clock; turns: ConversationTurns };

export class ConversationService {
  private readonly userTurn: UserTurn;
  private readonly broadcastTurn: BroadcastTurn;
  private readonly approvalTurn: ApprovalTurn;

  constructor(private readonly deps: ConversationServiceDeps) {
    this.userTurn = new UserTurn(deps);
    this.broadcastTurn = new BroadcastTurn(deps, this.userTurn);
    this.approvalTurn = new ApprovalTurn(deps, this.userTurn);
  }

  /** The bot's live version, compiled (cached per version). */
  live(bot: BotRecord): Promise<CompiledBot> {
    return this.deps.live.get(bot);
  }

  /** The conversation of `userId` with this bot, if any (a forgetting one included). */
  find(bot: BotRecord, userId: string): Promise<ConversationRecord | null> {
    return this.deps.store.conversations.byUser(bot.id, userId);
  }

  /** A user says or clicks something (or a new conversation starts): one engine turn. */
  async say(bot: BotRecord, userId: string | undefined, message: UserMessage): Promise<ChatReply> {
    assertWritableVariables(message.variables);
    return this.userTurn.run(bot, await this.live(bot), userId ?? crypto.randomUUID(), await this.withBroadcastButton(bot, message));
  }

  /** A click on a button of one of the bot's broadcast messages goes to that button's behaviour; any other command is left as it is. */
  private async withBroadcastButton(bot: BotRecord, message: UserMessage): Promise<UserMessage> {
    const named = parseButtonPayload(message.command);
    if (!named) return message;
    const button = await this.deps.store.broadcasts.messageButton(bot.id, named.broadcastId, named.index);
    if (!button?.Behaviour) return message;
    return { ...message, broadcastButton: { broadcastId: named.broadcastId, title: button.Title, behaviour: button.Behaviour } };
  }

  /** A broadcast reaches one conversation: the bot starts a turn there (broadcast-turn.ts). */
  async broadcast(bot: BotRecord, recipient: BroadcastRecipientTurn): Promise<BroadcastTurnOutcome> {
    return this.broadcastTurn.run(bot, await this.live(bot), recipient);
  }

  /** A colleague decided an agent's approval: the agent waiting on it goes on (approval-turn.ts). */
  async resumeAgent(bot: BotRecord, approval: ApprovalRecord, decision: ApprovalDecision): Promise<void> {
    await this.approvalTurn.run(bot, await this.live(bot), approval, decision);
  }

  /**
   * A message said by the bot or an operator (no flow runs), delivered on the conversation's
   * channel; variables and tags sent with it are applied first, in the same turn.
   */
  async inject(
    bot: BotRecord,
    existing: ConversationRecord,
    message: { direction: Exclude<Direction, 'USER'>; text?: string; parts?: unknown[] },
    changes: ValueChanges = NO_CHANGES,
  ): Promise<ChatReply> {
    assertPartsDepth(message.parts);
    assertWritableVariables(changes.variables);
    chattable(existing, this.deps.clock);
    const compiled = await this.live(bot);
    const position = existing.state.position ?? { behaviour: '', interaction: '' };
    const parts = injectedParts(message.text, message.parts, position);
    return this.deps.turns.run(bot, existing.userId, async (current) => {
      if (!current) throw new AppError('CONVERSATION_NOT_FOUND');
      const next = { ...current, state: copyState(current.state) };
      applyRequestValues(next.state, changes.variables, changes.tags, changes.dropTags);
      const reply = replyOf(next, parts, enableUserChatAt(compiled, next.state), this.deps.clock);
      return {
        messages: parts.length > 0 ? [{ direction: message.direction, parts, pushed: true, enableUserChat: reply.EnableUserChat, creation: reply.Creation }] : [],
        save: next,
        reply,
      };
    });
  }

  /** Variables and tags change, atomically, without a flow turn. */
  async changeValues(bot: BotRecord, userId: string, changes: ValueChanges, options: { checkChat: boolean; fields?: VariableFields } = { checkChat: true }): Promise<ConversationRecord> {
    assertWritableVariables(changes.variables, options.fields);
    return this.deps.turns.run(bot, userId, async (current) => {
      if (!current) throw new AppError('CONVERSATION_NOT_FOUND');
      const checked = options.checkChat ? chattable(current, this.deps.clock) : liftEndedBan(current, this.deps.clock);
      const state = structuredClone(checked.state);
      applyRequestValues(state, changes.variables, changes.tags, changes.dropTags);
      const next = { ...checked, state };
      return { save: next, reply: next };
    });
  }

  /** The stored history (or its last `limit` parts), as a reply that is not stored again. */
  async history(bot: BotRecord, existing: ConversationRecord, limit?: number): Promise<ChatReply> {
    const checked = chattable(existing, this.deps.clock);
    const enableUserChat = enableUserChatAt(await this.live(bot), checked.state);
    if (limit !== undefined) return replyOf(checked, await this.deps.store.conversations.historyParts(existing.id, limit), enableUserChat, this.deps.clock);
    const { Parts: _none, ...reply } = replyOf(checked, [], enableUserChat, this.deps.clock);
    return replyWithPartsJson(reply, await this.deps.store.conversations.historyJson(existing.id));
  }

  /**
   * The history as the widget resumes it: the parts, and for each top-level part who said it
   * (`Senders`: USER, BOT or OPERATOR), so that operator messages read back as an operator's, and
   * when (`Times`), with the time of the last control change (`StateSince`), so that a reload
   * keeps the times and the "talking with a person" notice where they were.
   */
  async historyWithSenders(bot: BotRecord, existing: ConversationRecord): Promise<ChatReply & { Senders: Direction[]; Times: string[]; StateSince: string }> {
    const checked = chattable(existing, this.deps.clock);
    const messages = await this.deps.store.conversations.storedMessages(existing.id, LIMITS.historyMessages);
    const reply = replyOf(
      checked,
      messages.flatMap((m) => m.parts),
      enableUserChatAt(await this.live(bot), checked.state),
      this.deps.clock,
    );
    const iso = (ms: number) => this.deps.clock.iso(ms);
    return {
      ...reply,
      Senders: messages.flatMap((m) => m.parts.map(() => m.direction)),
      Times: messages.flatMap((m) => m.parts.map(() => iso(m.createdAt))),
      StateSince: iso(checked.controlChangedAt),
    };
  }

  /** Messages queued while no client was asking, taken (marked delivered) once. */
  async takePending(bot: BotRecord, userId: string, existing: ConversationRecord | null): Promise<ChatReply> {
    if (!existing) return replyOf({ userId, controlState: 0 }, [], true, this.deps.clock);
    const checked = chattable(existing, this.deps.clock);
    const parts = await this.deps.turns.exclusive(bot.id, userId, () => this.deps.store.transaction((tx) => tx.conversations.takePending(existing.id)));
    return replyOf(checked, parts, enableUserChatAt(await this.live(bot), checked.state), this.deps.clock);
  }
}

/** EnableUserChat of the interaction where the conversation stands (true without a position). */
export function enableUserChatAt(compiled: CompiledBot, state: ConversationRecord['state'] | null): boolean {
  const position = state?.position;
  if (!position) return true;
  const interaction = compiled.behaviours.get(position.behaviour.toLowerCase())?.interactions.get(position.interaction.toLowerCase());
  return interaction?.enableUserChat ?? true;
}
