// What one conversation may hold (docs/limits.md), so that no client — an anonymous web visitor
// least of all — can grow a conversation, its turns and its READY answer without bound. The
// numbers live in shared/conversation-limits.ts (re-exported here). Requests that would cross a
// limit are refused whole (nothing is half-applied); what the flow itself writes is cut down
// instead, since the user cannot fix it.
import { isSystemVariable } from '../engine/state.js';
import type { ConversationState } from '../engine/types.js';
import { AppError } from '../shared/errors.js';
import { cutToBytes, utf8Bytes } from '../shared/utf8.js';
import { applyTags, applyVariables, type VariableUpdate } from './values.js';
import { LIMITS } from '../shared/conversation-limits.js';

export { LIMITS };

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
      throw exceeded('VariableValueBytes', LIMITS.variableValueBytes, `The value of ${Name} is longer than ${LIMITS.variableValueBytes} bytes.`, fields.value ?? `Variables.${Name}`);
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
