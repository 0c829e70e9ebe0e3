// The state a brand-new conversation starts from: the bot's default variables plus the system
// variables the caller knows (user_id, channel, creation_date). No position until its first turn.

import type { CompiledBot } from './compile.js';
import type { ConversationState } from './types.js';

export function newConversationState(bot: CompiledBot, systemVariables: Readonly<Record<string, string>> = {}): ConversationState {
  return {
    position: null,
    previous: null,
    bookmark: null,
    variables: { ...bot.defaultVariables, ...systemVariables },
    tags: [],
    privacy: {},
    waiting: null,
  };
}
