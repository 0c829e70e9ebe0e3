// Who broadcasts leave alone, and a user's own say over them (broadcasts.md "Opt-out"): a stop keyword sets
// `broadcast_opt_out = "true"` and is answered with a confirmation instead of running the flow; a
// start keyword undoes it (only for a user who opted out: otherwise it is an ordinary text).
// And a click on a button of the broadcast that reached the conversation last counts for it.
import type { BotRecord } from '../bots/model.js';
import type { CompiledBot } from '../engine/compile.js';
import type { ConversationState, ReplyPart } from '../engine/types.js';
import type { Clock } from '../shared/clock.js';
import { banIsActive, STATE_TAKEN_OVER } from './control.js';
import { injectedParts } from './inject.js';
import type { ConversationRecord } from './model.js';
import type { TurnWrites } from './port.js';

/** The variable a user's stop keyword sets, and that keeps every broadcast away (broadcasts.md "Opt-out"). */
export const OPT_OUT_VARIABLE = 'broadcast_opt_out';
/** The broadcast that reached the conversation last: a click on its buttons counts for it. */
export const LAST_BROADCAST_VARIABLE = 'broadcast_last';
/** Meta's customer-service window: free-form messages only this long after the user's last message. */
export const WINDOW_MS = 24 * 3_600_000;

/** Why a conversation is left out of every broadcast now, or null when it may get one. */
export function excludedBecause(c: Pick<ConversationRecord, 'forgetting' | 'controlState' | 'banExpiration'> & { state: { variables: Record<string, string> } }, clock: Clock): string | null {
  if (c.forgetting) return 'forgotten';
  if (banIsActive(c as Pick<ConversationRecord, 'controlState' | 'banExpiration'>, clock)) return 'banned';
  if (c.controlState === STATE_TAKEN_OVER) return 'operator';
  if (c.state.variables[OPT_OUT_VARIABLE] === 'true') return 'opted_out';
  return null;
}

const DEFAULT_STOP = ['stop', 'unsubscribe'];
const DEFAULT_START = ['start'];
const DEFAULT_STOP_REPLY = 'You will not receive broadcasts from us any more. Send START to receive them again.';
const DEFAULT_START_REPLY = 'Welcome back: you will receive our broadcasts again.';

const matches = (keywords: string[], text: string) => keywords.some((k) => k.trim().toLowerCase() === text);

/** A bot whose own text trigger is exactly the keyword keeps that word for its flow. */
function ownedByFlow(compiled: CompiledBot, said: string): boolean {
  const triggers = [...(compiled.source.triggers ?? []), ...compiled.source.behaviours.flatMap((b) => b.triggers ?? [])];
  return triggers.some((t) => 'match' in t && typeof t.match === 'string' && t.match.trim().toLowerCase() === said);
}

/** The confirmation to say (the state changed) when the text is an opt-out or opt-in keyword; else null. */
/**
 * `optedOut` is whether the conversation was opted out before this request: a platform may set the
 * variable back itself with the same message (Twilio's OptOutType START), and the start keyword
 * must still be answered with its confirmation, not run the flow.
 */
export function optOutAnswer(bot: BotRecord, compiled: CompiledBot, state: ConversationState, text: string | undefined, optedOut: boolean): ReplyPart[] | null {
  if (text === undefined) return null;
  const said = text.trim().toLowerCase();
  if (said === '' || ownedByFlow(compiled, said)) return null;
  const settings = bot.settings.broadcasts ?? {};
  const position = state.position ?? { behaviour: '', interaction: '' };
  if (matches(settings.stopKeywords ?? DEFAULT_STOP, said)) {
    state.variables[OPT_OUT_VARIABLE] = 'true';
    return injectedParts(settings.stopReply ?? DEFAULT_STOP_REPLY, undefined, position);
  }
  if (optedOut && matches(settings.startKeywords ?? DEFAULT_START, said)) {
    delete state.variables[OPT_OUT_VARIABLE];
    return injectedParts(settings.startReply ?? DEFAULT_START_REPLY, undefined, position);
  }
  return null;
}

/** The click a turn makes on a button of some behaviour, when a broadcast reached the conversation. */
export function broadcastClick(compiled: CompiledBot, state: ConversationState, command: string | undefined): { broadcastId: string; behaviour: string } | null {
  const broadcastId = state.variables[LAST_BROADCAST_VARIABLE];
  if (!broadcastId || !command) return null;
  const behaviour = compiled.actionsById.get(command)?.behaviour?.name;
  return behaviour ? { broadcastId, behaviour } : null;
}

/** Counts the click for the broadcast if the button is one of its behaviour's. */
export async function recordBroadcastClick(tx: TurnWrites, conversationId: number, click: { broadcastId: string; behaviour: string }, now: number): Promise<void> {
  const behaviour = await tx.broadcasts.behaviourOf(click.broadcastId);
  if (behaviour?.toLowerCase() === click.behaviour.toLowerCase()) await tx.broadcasts.noteClick(click.broadcastId, conversationId, now);
}
