// Variables, tags and privacy flags of a conversation: applying what a request sends, and the
// read views of api.md sections 4 to 6.
import type { ConversationState } from '../engine/types.js';
import type { ConversationRecord } from './model.js';

export type VariableUpdate = { Name: string; Value: unknown };

export const DEFAULT_PRIVACY_FLAG = 'personal_data_processing';

/** `Variables` may be `[{Name, Value}]` or `{name: value}`; `Value: null` deletes. */
export function variableUpdates(raw: unknown): VariableUpdate[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw as VariableUpdate[];
  return Object.entries(raw as Record<string, unknown>).map(([Name, Value]) => ({ Name, Value }));
}

export function applyVariables(state: ConversationState, updates: VariableUpdate[]): void {
  for (const { Name, Value } of updates) {
    if (Value === null || Value === undefined) delete state.variables[Name];
    else state.variables[Name] = typeof Value === 'string' ? Value : JSON.stringify(Value);
  }
}

export function applyTags(state: ConversationState, add: string[] = [], drop: string[] = []): void {
  const tags = new Set(state.tags);
  for (const tag of add) tags.add(tag);
  for (const tag of drop) tags.delete(tag);
  state.tags = [...tags];
}

/** Tags are compared exactly, as the engine's tagSwitch does. */
export function hasTag(state: ConversationState, tag: string): boolean {
  return state.tags.includes(tag);
}

export function valuesView(c: ConversationRecord) {
  return {
    UserId: c.userId,
    Variables: Object.entries(c.state.variables).map(([Name, Value]) => ({ Name, Value })),
    Tags: c.state.tags,
    PrivacyFlags: Object.entries({ [DEFAULT_PRIVACY_FLAG]: false, ...c.state.privacy }).map(([Name, Enabled]) => ({ Name, Enabled })),
    Context: {
      BehaviorName: c.state.position?.behaviour ?? null,
      InteractionName: c.state.position?.interaction ?? null,
      Channel: c.channel,
      ControlType: c.controlState,
    },
  };
}

export function positionView(c: ConversationRecord) {
  return {
    UserId: c.userId,
    BehaviourName: c.state.position?.behaviour ?? null,
    InteractionName: c.state.position?.interaction ?? null,
  };
}

/** api.md section 5: one variable, tag or privacy flag. */
export function singleValue(c: ConversationRecord, type: 'variable' | 'tag' | 'privacy', name: string): string | boolean | null {
  if (type === 'variable') return c.state.variables[name] ?? null;
  if (type === 'tag') return hasTag(c.state, name);
  return c.state.privacy[name] === true;
}
