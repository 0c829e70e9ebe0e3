// The state a brand-new conversation starts from: the bot's default variables plus the system
// variables the caller knows (user_id, channel, creation_date). No position until its first turn.

import type { CompiledBot } from './compile.js';
import type { ConversationState } from './types.js';

/**
 * bot-format.md "System variables": the engine (or the conversation's creation) sets them; flows
 * read them like any variable, and no request on any channel may write them.
 */
export const SYSTEM_VARIABLES: readonly string[] = Object.freeze([
  'user_id', 'channel', 'last_user_text', 'last_command', 'goto_source_behaviour',
  'goto_source_interaction', 'api_status', 'conversation_share_url', 'creation_date',
]);

const systemNames = new Set(SYSTEM_VARIABLES);

export const isSystemVariable = (name: string): boolean => systemNames.has(name);

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
