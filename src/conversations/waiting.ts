// api.md rule 6b: while a conversation waits for a person (control state 1), a visitor's text or
// button is stored and forwarded to the operators and runs no flow, trigger or intent — the bot
// must not answer "what is your order number?" to someone who already asked for a human. The bot
// says its waiting text once per hand-over request. `settings.operators.whileWaiting: "bot"` keeps
// the old behaviour (the flow goes on); forced positions and RESET always run the flow.
import type { CompiledBot } from '../engine/compile.js';
import { PartType } from '../engine/parts.js';
import type { ConversationState, ReplyPart } from '../engine/types.js';
import { STATE_REQUESTED } from './control.js';
import type { ConversationRecord } from './model.js';

/** The parts of a user's message (user-turn.ts UserMessage) that decide whether it is held. */
export interface HeldInput {
  command?: string;
  text?: string;
  forcedBehaviour?: string;
  forcedInteraction?: string;
  forcedBehaviourKey?: string;
}

export const DEFAULT_WAITING_TEXT = 'A colleague will be with you shortly.';

/** True when this message, in this conversation, is held for the operators instead of running the flow. */
export function heldForOperators(compiled: CompiledBot, conversation: ConversationRecord, input: HeldInput): boolean {
  if (conversation.controlState !== STATE_REQUESTED) return false;
  if (compiled.source.settings?.operators?.whileWaiting === 'bot') return false;
  const forced = input.forcedBehaviour !== undefined || input.forcedInteraction !== undefined || input.forcedBehaviourKey !== undefined;
  const upper = input.command?.toUpperCase();
  if (forced || upper === 'RESET' || upper === 'READY') return false;
  return (input.command !== undefined && input.command !== '') || (input.text !== undefined && input.text !== '');
}

/**
 * agents.md "Tools": while an agent's call waits for a colleague's approval, a text is stored and
 * shown to the operators, and the model is not asked. A click, a forced position or RESET runs the
 * flow as usual (the approval stays, to be decided; see docs/decisions.md).
 */
export function heldForApproval(conversation: ConversationRecord, input: HeldInput): boolean {
  if (conversation.state.waiting?.approval === undefined) return false;
  const forced = input.forcedBehaviour !== undefined || input.forcedInteraction !== undefined || input.forcedBehaviourKey !== undefined;
  return !forced && (input.command === undefined || input.command === '') && input.text !== undefined && input.text !== '';
}

/**
 * The waiting text as a part, the first time the visitor writes during this request (null after,
 * or when the bot's waitingText is ""); marks the state so that the next text stays silent.
 */
export function waitingNotice(compiled: CompiledBot, conversation: ConversationRecord): ReplyPart | null {
  const state = conversation.state;
  if (state.waitingNoticeFor === conversation.controlChangedAt) return null;
  state.waitingNoticeFor = conversation.controlChangedAt;
  const configured = compiled.source.settings?.operators?.waitingText;
  const text = typeof configured === 'string' ? configured : DEFAULT_WAITING_TEXT;
  if (text === '') return null;
  return storedPart(PartType.Text, text, state);
}

/** A part as the history keeps it: plain text, where the conversation stands. */
export function storedPart(type: number, text: string, state: ConversationState): ReplyPart {
  return { Type: type, Text: text, Command: null, TypeDelay: 0, BehaviourName: state.position?.behaviour ?? '', InteractionName: state.position?.interaction ?? '', Parts: [] };
}
