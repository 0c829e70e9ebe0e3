// The state a brand-new conversation starts from: the bot's default variables plus the system
// variables the caller knows (user_id, channel, creation_date). No position until its first turn.

import type { CompiledBot } from './compiled.js';
import type { AgentUsage, ConversationState, Position, WaitingInput } from './types.js';

/**
 * bot-format.md "System variables": the engine (or the conversation's creation) sets them; flows
 * read them like any variable, and no request on any channel may write them.
 */
export const SYSTEM_VARIABLES: readonly string[] = Object.freeze([
  'user_id',
  'channel',
  'last_user_text',
  'last_command',
  'goto_source_behaviour',
  'goto_source_interaction',
  'api_status',
  'conversation_share_url',
  'creation_date',
]);

const systemNames = new Set(SYSTEM_VARIABLES);

export const isSystemVariable = (name: string): boolean => systemNames.has(name);

export function newConversationState(bot: CompiledBot, systemVariables: Readonly<Record<string, string>> = {}): ConversationState {
  return {
    v: STATE_VERSION,
    position: null,
    previous: null,
    bookmark: null,
    variables: { ...bot.defaultVariables, ...systemVariables },
    tags: [],
    privacy: {},
    waiting: null,
  };
}

/** The shape version written into every state; bump it with a step in `stateFromStored`. */
/**
 * A state of its own to change: what turns change in place (variables, tags, privacy flags, the
 * waiting input) is copied; positions are shared, since they are only ever replaced. A tenth of
 * what `structuredClone` costs, and it runs on every turn.
 */
export function copyState(state: ConversationState): ConversationState {
  return {
    ...state,
    variables: { ...state.variables },
    tags: [...state.tags],
    privacy: { ...state.privacy },
    waiting: state.waiting === null ? null : { ...state.waiting },
  };
}

export const STATE_VERSION = 1;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function positionFrom(value: unknown): Position | null {
  return isRecord(value) && typeof value.behaviour === 'string' && typeof value.interaction === 'string' ? { behaviour: value.behaviour, interaction: value.interaction } : null;
}

function waitingFrom(value: unknown): WaitingInput | null {
  if (!isRecord(value) || typeof value.actionId !== 'string') return null;
  const wrong = value.wrongAnswers;
  return {
    actionId: value.actionId,
    wrongAnswers: typeof wrong === 'number' && Number.isFinite(wrong) && wrong >= 0 ? wrong : 0,
    ...(value.agent === true ? { agent: true as const } : {}),
    ...(typeof value.approval === 'string' ? { approval: value.approval } : {}),
  };
}

function agentUsageFrom(value: unknown): AgentUsage | null {
  if (!isRecord(value)) return null;
  const { day, tokens } = value;
  return Number.isInteger(day) && typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0 ? { day: day as number, tokens } : null;
}

function entriesOf<T>(value: unknown, keep: (item: unknown) => item is T): Record<string, T> {
  const out: Record<string, T> = {};
  if (isRecord(value)) for (const [name, item] of Object.entries(value)) if (keep(item)) out[name] = item;
  return out;
}

/**
 * The one reader of a stored conversation state (the store's row mapping calls it): whatever
 * version it was written in, the current shape comes out. A state without `v` was written before
 * versions existed and has today's fields, possibly missing or malformed: each gets its default
 * here, and nowhere else. A value of the wrong type is dropped rather than trusted, so the engine
 * can rely on the shape. A state from a newer version is read as far as this shape goes.
 */
export function stateFromStored(raw: unknown): ConversationState {
  const stored = isRecord(raw) ? raw : {};
  const agentUsage = agentUsageFrom(stored.agentUsage);
  return {
    v: STATE_VERSION,
    position: positionFrom(stored.position),
    previous: positionFrom(stored.previous),
    bookmark: positionFrom(stored.bookmark),
    variables: entriesOf(stored.variables, (item): item is string => typeof item === 'string'),
    tags: Array.isArray(stored.tags) ? stored.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    privacy: entriesOf(stored.privacy, (item): item is boolean => typeof item === 'boolean'),
    waiting: waitingFrom(stored.waiting),
    ...(typeof stored.waitingNoticeFor === 'number' && Number.isFinite(stored.waitingNoticeFor) ? { waitingNoticeFor: stored.waitingNoticeFor } : {}),
    ...(agentUsage !== null ? { agentUsage } : {}),
  };
}
