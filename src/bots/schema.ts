// The JSON Schema of a bot file (bot-format.md "Shape"), assembled from the fixed parts below and
// the schema fragment each action type registers in the engine. It is both what the server
// validates with and what it publishes at /schema/bot.json, so everything carries a description.

import type { ActionSchemaDefinition } from '../engine/action-definition.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import { actionRegistry } from '../engine/registry.js';
import { SYSTEM_VARIABLES } from '../engine/state.js';
import { bool, type JsonSchema, name, str } from './schema-parts.js';
import { NOT_SYSTEM_VARIABLE_PATTERN, settingsSchema } from './schema-settings.js';
import { knowledgeSchema, nlpSchema } from './schema-understanding.js';

export type ActionRegistry = ReadonlyMap<string, ActionSchemaDefinition>;
export type { JsonSchema };

export { BOT_FORMAT };
export const BOT_SCHEMA_ID = '/schema/bot.json';
/** The types a `buttons` list or a carousel card may hold. */
export const BUTTON_TYPES = ['button', 'link'] as const;

export const GUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
// `//host/x` is a protocol-relative URL, not a path under the server's base, hence the (?!/).
// One host character, then any non-space: the same texts as `[^\s/?#]+[^\s]*`, without two
// overlapping runs that made a long avatar with a late space backtrack for minutes (issue 11).
export const AVATAR_PATTERN = '^(?:https?://[^\\s/?#][^\\s]*|/(?!/)[^\\s]*)$';

/** Human wording for the patterns above; ajv's "must match pattern ..." helps nobody. */
export const PATTERN_MESSAGES: Record<string, string> = {
  [GUID_PATTERN]: 'must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
  [AVATAR_PATTERN]: 'must be an absolute http(s) URL or a path starting with /',
  [NOT_SYSTEM_VARIABLE_PATTERN]: `must not be a system variable (${SYSTEM_VARIABLES.join(', ')}): no request may write those`,
};

/** Descriptions of the dispatchers' `type` enums; problems.ts recognises those enums by them. */
export const ACTION_TYPE_TEXT = 'the action type';
export const BUTTON_TYPE_TEXT = 'the action type: a button or a link';

const ID_TEXT = 'GUID; generated on save for buttons and inputs when missing, kept across edits';

/** `$defs` key of an action type's own schema. */
export const actionDefName = (type: string): string => `action-${type}`;
const defRef = (name: string): string => `#/$defs/${encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'))}`;

/**
 * An engine fragment as the bot schema needs it: `type` always declared (else
 * additionalProperties:false would reject the discriminator itself); `id`, wherever declared,
 * a GUID (bot-format.md "Actions"); and for id-carrying actions an `id` that is allowed but not
 * required, since the server generates missing ids on save.
 */
function prepareFragment(type: string, def: ActionSchemaDefinition): JsonSchema {
  const fragment: JsonSchema = { ...def.schema };
  const properties = { ...((fragment.properties as JsonSchema | undefined) ?? {}) };
  if (!('type' in properties)) properties.type = { const: type };
  const id = properties.id as JsonSchema | undefined;
  if (id && typeof id === 'object' && id.type === 'string' && id.pattern === undefined) {
    properties.id = { ...id, pattern: GUID_PATTERN, description: (id.description as string | undefined) ?? ID_TEXT };
  }
  if (def.needsId) {
    if (!('id' in properties)) properties.id = { type: 'string', pattern: GUID_PATTERN, description: ID_TEXT };
    if (Array.isArray(fragment.required)) fragment.required = fragment.required.filter((r) => r !== 'id');
  }
  fragment.properties = properties;
  return fragment;
}

/**
 * Chooses the action schema by `type` with an if/then per type, so an invalid action gets the
 * errors of its own type only (a oneOf would report every type's mismatch), and an unknown type
 * gets exactly one enum error at `.type`.
 */
function dispatch(types: readonly string[], description: string, typeDescription: string): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['type'],
    properties: { type: { enum: [...types], description: typeDescription } },
    allOf: types.map((t) => ({
      if: { type: 'object', properties: { type: { const: t } }, required: ['type'] },
      then: { $ref: defRef(actionDefName(t)) },
    })),
  };
}

const textTriggerSchema: JsonSchema = {
  type: 'object',
  description: 'A text trigger: when the user text matches, its actions run instead of the normal handling.',
  required: ['match', 'actions'],
  additionalProperties: false,
  properties: {
    // A union type rather than oneOf so a wrong value gets one error, not one per alternative.
    match: {
      type: ['string', 'object'],
      description: 'Alternatives separated by | (whole text, case-insensitive), or {regex} (searched, case-insensitive).',
      minLength: 1,
      required: ['regex'],
      additionalProperties: false,
      properties: { regex: { type: 'string', minLength: 1, description: 'a regular expression in RE2 syntax (JavaScript spellings accepted; no backreferences or lookarounds)' } },
    },
    variable: str('variable that receives the matched text'),
    whileWaiting: bool('also checked while an input action waits (default false)'),
    actions: { $ref: '#/$defs/actions', description: 'operations run when the trigger fires' },
  },
};

const intentTriggerSchema: JsonSchema = {
  type: 'object',
  description: 'An intent trigger: fires when the trained model understands the user text as this intent (understanding.md).',
  required: ['intent', 'actions'],
  additionalProperties: false,
  properties: {
    intent: name('the name of an intent of the nlp section'),
    minScore: { type: 'number', minimum: 0, maximum: 1, description: 'lowest score that fires this trigger (default nlp.threshold)' },
    variable: str('variable that receives the user text'),
    whileWaiting: bool('also checked while an input action waits (default false)'),
    actions: { $ref: '#/$defs/actions', description: 'operations run when the trigger fires' },
  },
};

/** A trigger naming an `intent` is an intent trigger; any other is a text trigger (each gets its own errors). */
const triggerSchema: JsonSchema = {
  type: 'object',
  description: 'A text trigger ({match}) or an intent trigger ({intent}), checked in order.',
  if: { type: 'object', required: ['intent'] },
  then: intentTriggerSchema,
  else: textTriggerSchema,
};

const interactionSchema: JsonSchema = {
  type: 'object',
  description: 'A step of a behaviour: its actions run in order.',
  required: ['name', 'actions'],
  additionalProperties: false,
  properties: {
    name: name('unique (case-insensitive) within its behaviour'),
    start: bool('the interaction a behaviour starts at; exactly one per behaviour'),
    fallback: bool('runs on text the bot does not understand; at most one per behaviour'),
    enableUserChat: bool('whether the client lets the user type while here'),
    description: str('free text for editors'),
    actions: { $ref: '#/$defs/actions' },
  },
};

const behaviourSchema: JsonSchema = {
  type: 'object',
  description: 'A group of interactions.',
  required: ['name', 'interactions'],
  additionalProperties: false,
  properties: {
    name: name('unique (case-insensitive) within the bot'),
    start: bool('the behaviour conversations start in; exactly one per bot'),
    description: str('free text for editors'),
    apiKey: { type: 'string', minLength: 1, description: 'generated on save when absent, kept across edits' },
    triggers: { type: 'array', items: { $ref: '#/$defs/trigger' }, description: 'behaviour-wide text triggers' },
    interactions: { type: 'array', items: { $ref: '#/$defs/interaction' } },
  },
};

/** The complete bot-file schema for the given action registry. */
export function buildBotSchema(registry: ActionRegistry = actionRegistry, options: { id?: string } = {}): JsonSchema {
  const types = [...registry.keys()];
  const buttonTypes = BUTTON_TYPES.filter((t) => registry.has(t));
  const actionDefs: JsonSchema = {};
  for (const [type, def] of registry) actionDefs[actionDefName(type)] = prepareFragment(type, def);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: options.id ?? BOT_SCHEMA_ID,
    title: 'Colloquy bot file',
    description: `A Colloquy bot (format ${BOT_FORMAT}). See bot-format.md.`,
    type: 'object',
    required: ['format', 'name', 'behaviours'],
    additionalProperties: false,
    properties: {
      format: { const: BOT_FORMAT, description: 'format and version of this file' },
      version: { type: 'number', description: 'set by the server on files it hands out; ignored on input' },
      name: name('bot name'),
      description: str('free text'),
      avatar: { type: 'string', pattern: AVATAR_PATTERN, description: 'absolute http(s) URL, or a path under the server base' },
      settings: settingsSchema,
      variables: {
        type: 'object',
        description: 'default variable values copied into every new conversation',
        additionalProperties: { type: 'string' },
      },
      triggers: { type: 'array', items: { $ref: '#/$defs/trigger' }, description: 'bot-wide text and intent triggers' },
      behaviours: { type: 'array', items: { $ref: '#/$defs/behaviour' } },
      nlp: nlpSchema,
      knowledge: knowledgeSchema,
    },
    $defs: {
      behaviour: behaviourSchema,
      interaction: interactionSchema,
      trigger: triggerSchema,
      actions: { type: 'array', description: 'actions run in order', items: { $ref: '#/$defs/action' } },
      action: dispatch(types, 'One action; its fields depend on its type.', ACTION_TYPE_TEXT),
      buttonOrLink: dispatch(buttonTypes, 'A button or a link, as found in buttons lists and carousel cards.', BUTTON_TYPE_TEXT),
      ...actionDefs,
    },
  };
}

const cache = new WeakMap<ActionRegistry, JsonSchema>();

/** buildBotSchema, memoised per registry (the registry is immutable). */
export function botSchemaFor(registry: ActionRegistry = actionRegistry): JsonSchema {
  let schema = cache.get(registry);
  if (!schema) cache.set(registry, (schema = buildBotSchema(registry)));
  return schema;
}
