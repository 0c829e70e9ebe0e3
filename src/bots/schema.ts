// The JSON Schema of a bot file (bot-format.md "Shape"), assembled from the fixed parts below and
// the schema fragment each action type registers in the engine. It is both what the server
// validates with and what it publishes at /schema/bot.json, so everything carries a description.

import type { ActionSchemaDefinition } from '../engine/action-definition.js';
import { actionRegistry } from '../engine/registry.js';
import { SYSTEM_VARIABLES } from '../engine/state.js';
import { LIMITS } from '../shared/conversation-limits.js';

export type ActionRegistry = ReadonlyMap<string, ActionSchemaDefinition>;
export type JsonSchema = Record<string, unknown>;

import { BOT_FORMAT } from '../engine/bot-file.js';
import { knowledgeSchema, nlpSchema } from './schema-understanding.js';

export { BOT_FORMAT };
export const BOT_SCHEMA_ID = '/schema/bot.json';
/** The types a `buttons` list or a carousel card may hold. */
export const BUTTON_TYPES = ['button', 'link'] as const;

export const GUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
// `//host/x` is a protocol-relative URL, not a path under the server's base, hence the (?!/).
// One host character, then any non-space: the same texts as `[^\s/?#]+[^\s]*`, without two
// overlapping runs that made a long avatar with a late space backtrack for minutes (issue 11).
export const AVATAR_PATTERN = '^(?:https?://[^\\s/?#][^\\s]*|/(?!/)[^\\s]*)$';

/** Any name but a system variable's (bot-format.md "System variables"; none contains a regex metacharacter). */
export const NOT_SYSTEM_VARIABLE_PATTERN = `^(?!(?:${SYSTEM_VARIABLES.join('|')})$)`;

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

const str = (description: string): JsonSchema => ({ type: 'string', description });
const bool = (description: string): JsonSchema => ({ type: 'boolean', description });
const name = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });

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

/** Days, decimals allowed: 0 (keep) or at least 0.0001 (about 9 seconds), at most 100 years. */
const retentionDays = (description: string): JsonSchema => ({
  type: 'number',
  minimum: 0,
  maximum: 36_500,
  // one number field in the designer's form, and nothing between 0 and 0.0001
  not: { exclusiveMinimum: 0, exclusiveMaximum: 0.0001 },
  description: `${description}; decimals allowed (at least 0.0001); 0 or absent: keep`,
});

const settingsSchema: JsonSchema = {
  type: 'object',
  description: 'Bot settings.',
  additionalProperties: false,
  properties: {
    enableTypeSpeed: bool('delay text replies by their reading time'),
    wordsPerMinute: { type: 'integer', minimum: 1, description: 'reading speed used by enableTypeSpeed' },
    simplifiedAuth: bool('let channels authenticate with the bot key alone'),
    retention: {
      type: 'object',
      additionalProperties: false,
      description: 'governance.md "Retention": conversations forgotten (as state=forget) by maintenance; taken-over ones kept until handed back',
      properties: {
        inactiveDays: retentionDays('forget a conversation with no activity for this many days'),
        keepDays: retentionDays('forget a conversation this many days after it started'),
      },
    },
    channels: {
      type: 'object',
      description: 'Per-channel settings; channels other than custom and web are free-form objects.',
      additionalProperties: { type: 'object' },
      properties: {
        custom: {
          type: 'object',
          additionalProperties: false,
          properties: {
            webhookUrl: { type: ['string', 'null'], description: 'where replies of the custom channel are posted' },
            includeAllChannels: bool('also post replies of the other channels'),
          },
        },
        web: {
          type: 'object',
          additionalProperties: false,
          properties: {
            enabled: bool('whether the web chat widget is served'),
            title: { type: 'string', maxLength: 60, description: "the widget's title (default: the bot's name)" },
            color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', description: "the widget's colour, as #rrggbb; dark enough for white text (default #1d4ed8)" },
            greeting: { type: 'string', maxLength: 300, description: 'a line shown at the top of the chat window before the conversation' },
            position: { enum: ['right', 'left'], description: 'the corner of the page the widget sits in (default right)' },
            allowedOrigins: { type: 'array', items: { type: 'string' }, description: 'origins allowed to embed the widget; * for any' },
            acceptVariables: {
              type: 'array',
              maxItems: LIMITS.variablesPerConversation,
              uniqueItems: true,
              items: { type: 'string', minLength: 1, maxLength: 256, pattern: NOT_SYSTEM_VARIABLE_PATTERN },
              description: 'the only variables a web page may set when it starts a conversation (empty by default); never a system variable',
            },
          },
        },
      },
    },
    operators: {
      type: 'object',
      additionalProperties: false,
      description: 'api.md rule 6b: what a conversation waiting for a person (state 1) does with user texts',
      properties: {
        whileWaiting: { enum: ['quiet', 'bot'], description: 'quiet (default): texts reach the operators and run no flow, trigger or intent; bot: the flow goes on' },
        waitingText: { type: 'string', maxLength: 1000, description: 'said once per hand-over request (default "A colleague will be with you shortly."; "" for nothing)' },
      },
    },
    ai: {
      type: 'object',
      additionalProperties: false,
      description: 'agents.md "Budgets" and "Streaming": past a budget an agent is not called (agent_status BUDGET, onError runs); stream shows answers as they arrive',
      properties: {
        maxTokensPerConversationDay: { type: 'integer', minimum: 1, description: 'tokens the agents of one conversation may use a day (default 50000)' },
        maxTokensPerBotDay: { type: 'integer', minimum: 1, description: "tokens the bot's agents may use a day, all conversations together (default unlimited)" },
        stream: {
          type: 'boolean',
          description: 'agents.md "Streaming": the agent\'s text and an ai step\'s said reply are asked for as a stream and shown as they arrive in the web widget and the console (default false)',
        },
      },
    },
    understanding: {
      type: 'object',
      additionalProperties: false,
      description: 'knowledge.md "The built-in model": meaning for intents and knowledge without a provider',
      properties: {
        embeddingModel: { enum: ['builtin', 'none'], description: "builtin (default): the server's packaged sentence model when the bot has no provider embedding model; none: words alone" },
      },
    },
    broadcasts: {
      type: 'object',
      additionalProperties: false,
      description: 'broadcasts.md: opt-out keywords, Messenger message tag, sending pace',
      properties: {
        stopKeywords: keywords('texts that opt a user out of broadcasts (default stop, unsubscribe; [] for none)'),
        startKeywords: keywords('texts that opt an opted-out user back in (default start)'),
        stopReply: { type: 'string', maxLength: 1000, description: 'the confirmation of an opt-out' },
        startReply: { type: 'string', maxLength: 1000, description: 'the confirmation of an opt-in' },
        messengerTag: { enum: ['ACCOUNT_UPDATE', 'CONFIRMED_EVENT_UPDATE', 'POST_PURCHASE_UPDATE', 'HUMAN_AGENT'], description: "Meta's message tag for Messenger users outside the 24-hour window" },
        messagesPerSecond: { type: 'integer', minimum: 1, maximum: 1000, description: "recipients a second on each channel (default: the platform's own limit)" },
      },
    },
  },
};

function keywords(description: string): JsonSchema {
  return { type: 'array', maxItems: 20, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 64 }, description };
}

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
