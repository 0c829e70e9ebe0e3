// The custom channel (api.md section 3): what one POST /custom/chat means in Xenioo's wire
// terms — RESET, READY, PENDING, a text or a payload, injections with DIRECTION, CHANNEL — mapped
// onto the conversation service's intents. No conversation is changed here.
import crypto from 'node:crypto';
import type { BotRecord } from '../../bots/model.js';
import { assertWritableVariables } from '../../conversations/limits.js';
import type { Direction } from '../../conversations/model.js';
import type { ChatReply, ConversationService, UserMessage } from '../../conversations/service.js';
import { AppError } from '../../shared/errors.js';

export type { ChatReply };

/** One request to the chat endpoint, with its headers folded in. */
export interface ChatInput extends UserMessage {
  userId?: string;
  parts?: unknown[];
  /** named by the CHANNEL header or the Channel field: the conversation must exist on it */
  channel?: string;
  direction: Direction;
  historyLimit?: number;
}

export class ChatService {
  constructor(private readonly conversations: ConversationService) {}

  async chat(bot: BotRecord, input: ChatInput): Promise<ChatReply> {
    // Refused before anything runs, whatever the direction (docs/limits.md).
    assertWritableVariables(input.variables);
    const command = input.command?.toUpperCase();
    const onAnotherChannel = input.channel !== undefined || input.direction !== 'USER';
    if (!onAnotherChannel && command !== 'PENDING' && command !== 'READY') return this.conversations.say(bot, input.userId, input);

    const userId = input.userId ?? crypto.randomUUID();
    let existing = await this.conversations.find(bot, userId);
    if (onAnotherChannel) {
      if (!existing) throw new AppError('CONVERSATION_NOT_FOUND');
      if (input.channel !== undefined && input.channel.toLowerCase() !== existing.channel) {
        throw new AppError('CHANNEL_MISMATCH', `The conversation is on the ${existing.channel} channel.`, { Channel: existing.channel });
      }
    }
    // Variables and tags come first in any request: an injection applies them in its own turn,
    // READY and PENDING in one before reading.
    if (input.direction !== 'USER') return this.conversations.inject(bot, existing!, { direction: input.direction, text: input.text, parts: input.parts }, input);
    if (existing && input.variables.length + input.tags.length + input.dropTags.length > 0) {
      existing = await this.conversations.changeValues(bot, userId, input);
    }
    if (command === 'PENDING') return this.conversations.takePending(bot, userId, existing);
    // READY for an unknown user acts as RESET (rule 3); on another channel, a text is a user turn.
    if (command === 'READY' && existing) return this.conversations.history(bot, existing, input.historyLimit);
    return this.conversations.say(bot, userId, input);
  }

  /** First-generation `POST /apihook/status`: one variable or tag change, applied atomically. */
  updateValue(bot: BotRecord, userId: string, update: { kind: 'set-var' | 'del-var' | 'set-tag' | 'del-tag'; name: string; value?: unknown }) {
    const variables = update.kind === 'set-var' ? [{ Name: update.name, Value: update.value ?? '' }] : update.kind === 'del-var' ? [{ Name: update.name, Value: null }] : [];
    const tags = update.kind === 'set-tag' ? [update.name] : [];
    const dropTags = update.kind === 'del-tag' ? [update.name] : [];
    return this.conversations.changeValues(bot, userId, { variables, tags, dropTags }, { checkChat: false, fields: { name: 'Name', value: 'Value' } });
  }
}
