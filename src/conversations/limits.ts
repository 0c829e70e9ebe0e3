// What one conversation may hold (docs/limits.md), so that no client — an anonymous web visitor
// least of all — can grow a conversation, its turns and its READY answer without bound. The
// numbers live here and only here. Requests that would cross a limit are refused whole (nothing is
// half-applied); what the flow itself writes is cut down instead, since the user cannot fix it.
import { isSystemVariable } from '../engine/state.js';
import type { ConversationState } from '../engine/types.js';
import { AppError } from '../shared/errors.js';
import { cutToBytes, utf8Bytes } from '../shared/utf8.js';
import { applyTags, applyVariables, type VariableUpdate } from './values.js';

export const LIMITS = Object.freeze({
  /** variables a request may bring a conversation up to (bot defaults and system variables count) */
  variablesPerConversation: 200,
  /** UTF-8 bytes of one variable value sent by a request */
  variableValueBytes: 4 * 1024,
  /** UTF-8 bytes of one variable value the flow writes (setVariable append, callApi answers): cut beyond */
  flowValueBytes: 64 * 1024,
  /** tags a request may bring a conversation up to; the flow's setTag adds none beyond */
  tagsPerConversation: 100,
  /** characters of a tag the flow makes from a template (requests: the route schema's 256) */
  tagLength: 256,
  /** privacy flags a flow may set (their names are templates too) */
  privacyFlagsPerConversation: 100,
  /** stored messages kept per conversation, newest first; older ones are deleted on write */
  historyMessages: 1000,
  /** bytes of stored parts (JSON) kept per conversation; the newest message is always kept */
  historyBytes: 1024 * 1024,
  /** levels of nested `Parts` in an injection (a part without children is 1 level) */
  partsDepth: 8,
  /** UTF-8 bytes of a missed text (understanding.md) as stored, grouped and listed: cut beyond */
  missedTextBytes: 1024,
  /** missed texts kept per conversation, newest first; older ones are deleted with the turn's write */
  missedTextsPerConversation: 100,
  /** operators' notes a conversation keeps (the console shows no more); an agent's hand-over reason is one */
  notesPerConversation: 200,
  /** agent turns whose trace a conversation keeps (agents.md "Trace"), newest */
  agentTracesPerConversation: 100,
  /**
   * ...on every this-many-th turn of the conversation (its revision): trimming on every turn cost a
   * fallback turn 4 % of its throughput (docs/performance.md), so a conversation holds at most
   * missedTextsPerConversation + missedTextsTrimEvery - 1 between two trims.
   */
  missedTextsTrimEvery: 10,
  /** missed texts kept per bot, newest first (the maintenance pass deletes the rest) */
  missedTextsPerBot: 10_000,
  /** days a missed text is kept (the maintenance pass deletes older ones) */
  missedTextDays: 90,
});

/** How applyVariables stores a value: strings as they are, anything else as its JSON text. */
const storedText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function exceeded(limit: string, max: number, message: string, field?: string): AppError {
  return new AppError('LIMIT_EXCEEDED', message, { Limit: limit, Max: max, ...(field === undefined ? {} : { Field: field }) });
}

export interface VariableFields {
  /** the field named when a variable's name is refused (default `Variables.<name>`) */
  name?: string;
  /** the field named when its value is refused (default `Variables.<name>`) */
  value?: string;
}

/**
 * Checks what a request asks to write before anything runs: no system variable (set or deleted),
 * no value over `variableValueBytes`.
 */
export function assertWritableVariables(updates: readonly VariableUpdate[], fields: VariableFields = {}): void {
  for (const { Name, Value } of updates) {
    if (isSystemVariable(Name)) {
      throw new AppError('INVALID_REQUEST', `${Name} is a system variable: the engine sets it, no request may.`, { Field: fields.name ?? `Variables.${Name}` });
    }
    if (Value === null || Value === undefined) continue;
    if (utf8Bytes(storedText(Value)) > LIMITS.variableValueBytes) {
      throw exceeded(
        'VariableValueBytes',
        LIMITS.variableValueBytes,
        `The value of ${Name} is longer than ${LIMITS.variableValueBytes} bytes.`,
        fields.value ?? `Variables.${Name}`,
      );
    }
  }
}

/**
 * Applies a request's variables and tags to `state` (a copy the caller may throw away), refusing
 * the whole request when it would add variables or tags beyond their limits. A conversation that
 * is already over a limit (a bot with many default variables) can still change and drop values.
 */
export function applyRequestValues(state: ConversationState, variables: readonly VariableUpdate[], tags: readonly string[] = [], dropTags: readonly string[] = []): void {
  const variablesBefore = Object.keys(state.variables).length;
  const tagsBefore = state.tags.length;
  applyVariables(state, [...variables]);
  applyTags(state, [...tags], [...dropTags]);
  const variablesAfter = Object.keys(state.variables).length;
  if (variablesAfter > LIMITS.variablesPerConversation && variablesAfter > variablesBefore) {
    throw exceeded('VariablesPerConversation', LIMITS.variablesPerConversation, `A conversation holds at most ${LIMITS.variablesPerConversation} variables.`);
  }
  if (state.tags.length > LIMITS.tagsPerConversation && state.tags.length > tagsBefore) {
    throw exceeded('TagsPerConversation', LIMITS.tagsPerConversation, `A conversation holds at most ${LIMITS.tagsPerConversation} tags.`);
  }
}

/**
 * Bounds what a turn's flow wrote: values cut to `flowValueBytes`, tags and privacy flags beyond
 * their limits dropped (the newest go), tags made from long texts cut. Variable names come from
 * the bot file, so their number is the bot's own affair.
 */
export function clampFlowState(state: ConversationState): void {
  for (const [name, value] of Object.entries(state.variables)) {
    const cut = cutToBytes(value, LIMITS.flowValueBytes);
    if (cut !== value) state.variables[name] = cut;
  }
  if (state.tags.length > LIMITS.tagsPerConversation || state.tags.some((tag) => tag.length > LIMITS.tagLength)) {
    const tags = new Set(state.tags.map((tag) => (tag.length > LIMITS.tagLength ? tag.slice(0, LIMITS.tagLength) : tag)));
    state.tags = [...tags].slice(0, Math.max(LIMITS.tagsPerConversation, 0));
  }
  const flags = Object.keys(state.privacy);
  if (flags.length > LIMITS.privacyFlagsPerConversation) {
    for (const flag of flags.slice(LIMITS.privacyFlagsPerConversation)) delete state.privacy[flag];
  }
}

/** How deep injected `Parts` nest, counted without recursion (a hostile body nests thousands deep). */
export function assertPartsDepth(parts: readonly unknown[] | undefined): void {
  const stack: Array<{ part: unknown; depth: number }> = (parts ?? []).map((part) => ({ part, depth: 1 }));
  while (stack.length > 0) {
    const { part, depth } = stack.pop()!;
    if (depth > LIMITS.partsDepth) {
      throw new AppError('INVALID_REQUEST', `Parts nest at most ${LIMITS.partsDepth} levels deep.`, { Field: 'Parts', Limit: 'PartsDepth', Max: LIMITS.partsDepth });
    }
    const children = part !== null && typeof part === 'object' ? (part as { Parts?: unknown }).Parts : undefined;
    if (Array.isArray(children)) for (const child of children) stack.push({ part: child, depth: depth + 1 });
  }
}
