// `ai`: one call to the bot's AI provider (understanding.md "AI steps"), made by the caller outside
// any transaction and never repeated by a retried turn (the engine only yields the request). reply
// stores (and may say) the answer; classify picks one of `labels` or "other"; extract sets one
// variable per field found. `ai_status` says how it went; on anything but OK `onError` runs and the
// list goes on, as after callApi.
import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { PartType } from '../../parts.js';
import { numberField, stringList } from '../fields.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS, TEXT } from '../schema-parts.js';
import type { AiStatus } from '../../types.js';
import { cutToBytes } from '../../../shared/utf8.js';
import { classifyInstructions, extractInstructions, fieldsOf, labelOf, toAiAnswer } from './answers.js';

export const AI_MODES = ['reply', 'classify', 'extract'] as const;
export const DEFAULT_AI_TIMEOUT_MS = 15_000;
export const MAX_AI_TIMEOUT_MS = 60_000;
export const DEFAULT_AI_HISTORY = 10;
export const MAX_AI_HISTORY = 100;
/**
 * The most a step may ask for: about what MAX_AI_ANSWER_BYTES holds (~4 bytes a token), so no
 * token is paid for only to be cut away (docs/limits.md "AI answers").
 */
export const MAX_AI_MAX_TOKENS = 16_384;
/** Asked for when the step names no maxTokens: a long chat answer, about a messaging platform's 4,096 characters. */
export const DEFAULT_AI_MAX_TOKENS = 1_024;
/** A reply's text, as said and as stored in `variable`: cut beyond (the flow-written value cap). */
export const MAX_AI_ANSWER_BYTES = 64 * 1024;

export const aiAction = defineAction({
  type: 'ai',
  needsId: false,
  schema: actionSchema('ai', {
    mode: Type.Enum([...AI_MODES], { description: 'reply: answer the user; classify: pick one of labels; extract: fill fields' }),
    instructions: Type.Optional(Type.String({ description: 'the system message (a template)' })),
    input: Type.Optional(Type.String({ description: 'what the model answers (a template); default the last user text' })),
    history: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AI_HISTORY, description: 'earlier stored messages sent along (default 10)' })),
    labels: Type.Optional(Type.Array(NON_EMPTY_TEXT, { minItems: 1, description: 'classify: the labels the answer must be one of (or "other")' })),
    fields: Type.Optional(
      Type.Unsafe<Record<string, string>>({
        type: 'object',
        additionalProperties: TEXT,
        minProperties: 1,
        description: 'extract: field name → what it is; each found field goes to the variable of that name',
      }),
    ),
    variable: Type.Optional(NON_EMPTY_TEXT),
    say: Type.Optional(Type.Boolean({ description: 'reply: also say the answer as a text part (default false)' })),
    maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AI_MAX_TOKENS, description: `default ${DEFAULT_AI_MAX_TOKENS}` })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AI_TIMEOUT_MS })),
    onError: Type.Optional(OPERATIONS),
  }),
  check(action) {
    if (action.mode === 'classify' && stringList(action.labels).length === 0) return [{ path: ['labels'], message: 'classify needs at least one label' }];
    if (action.mode === 'extract' && Object.keys(fieldsField(action.fields)).length === 0) return [{ path: ['fields'], message: 'extract needs at least one field' }];
    return [];
  },
  *run(action, rc) {
    const mode = AI_MODES.includes(action.mode) ? action.mode : 'reply';
    const labels = stringList(action.labels)
      .map((l) => rc.render(l))
      .filter((l) => l !== '');
    const fields = fieldsField(action.fields);
    const own = rc.render(action.instructions);
    const instructions = mode === 'classify' ? classifyInstructions(own, labels) : mode === 'extract' ? extractInstructions(own, fields) : own;
    const input = typeof action.input === 'string' ? rc.render(action.input) : (rc.getVariable('last_user_text') ?? '');
    const answer = toAiAnswer(
      yield* rc.askOutside({
        kind: 'ai',
        instructions,
        input,
        history: clamp(numberField(action.history) ?? DEFAULT_AI_HISTORY, 0, MAX_AI_HISTORY),
        // clamped too: a version saved before the cap was lowered may name more
        maxTokens: clamp(numberField(action.maxTokens) ?? DEFAULT_AI_MAX_TOKENS, 1, MAX_AI_MAX_TOKENS),
        temperature: numberField(action.temperature),
        timeoutMs: clamp(numberField(action.timeoutMs) ?? DEFAULT_AI_TIMEOUT_MS, 1, MAX_AI_TIMEOUT_MS),
        ...(mode === 'reply' && action.say === true ? { said: true } : {}),
      }),
    );
    if (answer.status !== 'NOT_CONFIGURED') rc.countApiCall();
    rc.countAiTokens(answer.tokens);
    const variable = typeof action.variable === 'string' && action.variable !== '' ? action.variable : null;
    let status: AiStatus = answer.status;
    if (status === 'OK' && mode === 'reply') {
      const text = cutToBytes(answer.text, MAX_AI_ANSWER_BYTES);
      if (variable !== null) rc.setVariable(variable, text);
      if (action.say === true && text.trim() !== '') rc.say(rc.part(PartType.Text, { Text: text }));
    } else if (status === 'OK' && mode === 'classify') {
      const label = labelOf(answer.text, labels);
      if (label === null) status = 'ERROR';
      else if (variable !== null) rc.setVariable(variable, label);
    } else if (status === 'OK' && mode === 'extract') {
      const found = fieldsOf(answer.text, Object.keys(fields));
      if (found === null) status = 'ERROR';
      else for (const [name, value] of Object.entries(found)) rc.setVariable(name, value);
    }
    rc.setVariable('ai_status', status);
    if (status !== 'OK') return yield* rc.runActions(action.onError);
  },
});

function fieldsField(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [name, description] of Object.entries(value)) if (name !== '' && typeof description === 'string') out[name] = description;
  return out;
}

const clamp = (n: number, min: number, max: number): number => Math.min(Math.max(Math.floor(n), min), max);
