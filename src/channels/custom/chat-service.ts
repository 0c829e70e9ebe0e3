// The custom channel's chat endpoint (api.md section 3): what one POST /custom/chat means, from
// RESET and READY to injections on another channel. The turn mechanics (locking, committing) are
// in conversations/turns.ts; the flow itself is the pure engine.
import crypto from 'node:crypto';
import type { LiveBots } from '../../bots/live.js';
import type { CompiledBot } from '../../engine/compile.js';
import type { ReplyPart } from '../../engine/types.js';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import type { Store } from '../../store/index.js';
import { assertCanChat } from '../../conversations/control.js';
import { liftEndedBan } from '../../conversations/control-machine.js';
import type { ConversationTurns } from '../../conversations/turns.js';
import type { VariableUpdate } from '../../conversations/values.js';
import { applyRequestValues, assertPartsDepth, assertWritableVariables } from '../../conversations/limits.js';
import { injectedParts } from './inject.js';
import { replyWithPartsJson, type ChatReply } from './chat-reply.js';

export type { ChatReply };
import { UserTurn, type TurnRunnerDeps } from './user-turn.js';
import type { ConversationRecord, Direction } from '../../conversations/model.js';
import type { BotRecord } from '../../bots/model.js';

export interface ChatInput {
  userId?: string;
  command?: string;
  text?: string;
  parts?: unknown[];
  forcedBehaviour?: string;
  forcedInteraction?: string;
  forcedBehaviourKey?: string;
  variables: VariableUpdate[];
  tags: string[];
  dropTags: string[];
  /** named by the CHANNEL header or the Channel field: the conversation must exist on it */
  channel?: string;
  /** the channel a conversation this request creates starts on (the web channel sets `web`) */
  newChannel?: string;
  direction: Direction;
  historyLimit?: number;
}


export class ChatService {
  private readonly userTurn: UserTurn;

  constructor(private readonly deps: TurnRunnerDeps & { store: Store; live: LiveBots; clock: Clock; turns: ConversationTurns }) {
    this.userTurn = new UserTurn(deps);
  }

  live(bot: BotRecord): Promise<CompiledBot> {
    return this.deps.live.get(bot);
  }

  async chat(bot: BotRecord, input: ChatInput): Promise<ChatReply> {
    // Refused before anything runs, whatever the route or direction (docs/limits.md).
    assertWritableVariables(input.variables);
    if (input.direction !== 'USER') assertPartsDepth(input.parts);
    const compiled = await this.deps.live.get(bot);
    const userId = input.userId ?? crypto.randomUUID();
    const command = input.command?.toUpperCase();
    const onAnotherChannel = input.channel !== undefined || input.direction !== 'USER';

    if (onAnotherChannel || command === 'PENDING' || command === 'READY') {
      let existing = await this.deps.store.conversations.byUser(bot.id, userId);
      if (onAnotherChannel) {
        if (!existing) throw new AppError('CONVERSATION_NOT_FOUND');
        if (input.channel !== undefined && input.channel.toLowerCase() !== existing.channel) {
          throw new AppError('CHANNEL_MISMATCH', `The conversation is on the ${existing.channel} channel.`, { Channel: existing.channel });
        }
      }
      // Variables and tags come first in any request, READY and PENDING included.
      const updates = input.variables.length + input.tags.length + input.dropTags.length > 0;
      if (existing && updates && input.direction === 'USER') existing = await this.applyValues(bot, userId, input);
      if (command === 'PENDING' && input.direction === 'USER') return this.pending(bot, compiled, userId, existing);
      if (command === 'READY' && input.direction === 'USER' && existing) return this.ready(bot, compiled, existing, input.historyLimit);
      if (input.direction !== 'USER') return this.inject(bot, compiled, existing!, input);
    }
    return this.userTurn.run(bot, compiled, userId, input);
  }

  /** Rule 4: queued messages, marked delivered; no conversation is created for an unknown user. */
  private async pending(bot: BotRecord, compiled: CompiledBot, userId: string, existing: ConversationRecord | null): Promise<ChatReply> {
    if (!existing) return this.reply(compiled, { userId, createdAt: this.deps.clock.now(), state: null, controlState: 0 }, []);
    assertCanChat(existing, this.deps.clock);
    const checked = liftEndedBan(existing, this.deps.clock);
    const parts = await this.deps.turns.exclusive(bot.id, userId, () => this.deps.store.transaction((tx) => tx.conversations.takePending(existing.id)));
    return this.reply(compiled, checked, parts);
  }

  /** Rule 3: the whole stored history (or its last HistoryLimit parts); not stored again. */
  private async ready(_bot: BotRecord, compiled: CompiledBot, existing: ConversationRecord, limit?: number): Promise<ChatReply> {
    assertCanChat(existing, this.deps.clock);
    const checked = liftEndedBan(existing, this.deps.clock);
    if (limit !== undefined) return this.reply(compiled, checked, await this.deps.store.conversations.historyParts(existing.id, limit));
    const { Parts: _none, ...reply } = this.reply(compiled, checked, []);
    return replyWithPartsJson(reply, await this.deps.store.conversations.historyJson(existing.id));
  }

  /** DIRECTION BOT / OPERATOR: stored as said by the bot or an operator and delivered on the conversation's channel. */
  private async inject(bot: BotRecord, compiled: CompiledBot, existing: ConversationRecord, input: ChatInput): Promise<ChatReply> {
    assertCanChat(existing, this.deps.clock);
    const position = existing.state.position ?? { behaviour: '', interaction: '' };
    const parts = injectedParts(input.text, input.parts, position, this.deps.clock);
    return this.deps.turns.run(bot, existing.userId, async (current) => {
      if (!current) throw new AppError('CONVERSATION_NOT_FOUND');
      const reply = this.reply(compiled, current, parts);
      return {
        messages: parts.length > 0 ? [{ direction: input.direction, parts, pushed: true, enableUserChat: reply.EnableUserChat, creation: reply.Creation }] : [],
        save: { ...current },
        reply,
      };
    });
  }

  /** The Variables, Tags and DropTags of a READY or PENDING request, applied atomically. */
  private applyValues(bot: BotRecord, userId: string, input: ChatInput): Promise<ConversationRecord> {
    return this.deps.turns.run(bot, userId, async (current) => {
      if (!current) throw new AppError('CONVERSATION_NOT_FOUND');
      assertCanChat(current, this.deps.clock);
      const checked = liftEndedBan(current, this.deps.clock);
      const state = structuredClone(checked.state);
      applyRequestValues(state, input.variables, input.tags, input.dropTags);
      const next = { ...checked, state };
      return { save: next, reply: next };
    });
  }

  /** First-generation `POST /apihook/status`: one variable or tag change, applied atomically. */
  async updateValue(bot: BotRecord, userId: string, update: { kind: 'set-var' | 'del-var' | 'set-tag' | 'del-tag'; name: string; value?: unknown }): Promise<ConversationRecord> {
    const variables = update.kind === 'set-var' ? [{ Name: update.name, Value: update.value ?? '' }] : update.kind === 'del-var' ? [{ Name: update.name, Value: null }] : [];
    assertWritableVariables(variables, { name: 'Name', value: 'Value' });
    return this.deps.turns.run(bot, userId, async (current) => {
      if (!current) throw new AppError('CONVERSATION_NOT_FOUND');
      const state = structuredClone(current.state);
      applyRequestValues(state, variables, update.kind === 'set-tag' ? [update.name] : [], update.kind === 'del-tag' ? [update.name] : []);
      const next = { ...current, state };
      return { save: next, reply: next };
    });
  }

  reply(
    compiled: CompiledBot,
    conversation: Pick<ConversationRecord, 'userId' | 'createdAt' | 'controlState'> & { state: ConversationRecord['state'] | null },
    parts: ReplyPart[],
    enableUserChat?: boolean,
  ): ChatReply {
    return {
      Parts: parts,
      UserId: conversation.userId,
      Creation: this.deps.clock.iso(), // api.md: the time this reply was made
      EnableUserChat: enableUserChat ?? enableUserChatAt(compiled, conversation.state),
      ControlType: conversation.controlState,
    };
  }
}

function enableUserChatAt(compiled: CompiledBot, state: ConversationRecord['state'] | null): boolean {
  const position = state?.position;
  if (!position) return true;
  const interaction = compiled.behaviours.get(position.behaviour.toLowerCase())?.interactions.get(position.interaction.toLowerCase());
  return interaction?.enableUserChat ?? true;
}
