// The bot file's `settings` (bot-format.md "Settings"): typing speed, retention, per-channel
// settings, operators, AI budgets, understanding and broadcasts. Part of the bot schema
// (schema.ts); kept apart so that each file reads as one thing.
import { SYSTEM_VARIABLES } from '../engine/state.js';
import { LIMITS } from '../shared/conversation-limits.js';
import { bool, type JsonSchema } from './schema-parts.js';

/** Any name but a system variable's (bot-format.md "System variables"; none contains a regex metacharacter). */
export const NOT_SYSTEM_VARIABLE_PATTERN = `^(?!(?:${SYSTEM_VARIABLES.join('|')})$)`;

/** Days, decimals allowed: 0 (keep) or at least 0.0001 (about 9 seconds), at most 100 years. */
const retentionDays = (description: string): JsonSchema => ({
  type: 'number',
  minimum: 0,
  maximum: 36_500,
  // one number field in the designer's form, and nothing between 0 and 0.0001
  not: { exclusiveMinimum: 0, exclusiveMaximum: 0.0001 },
  description: `${description}; decimals allowed (at least 0.0001); 0 or absent: keep`,
});

export const settingsSchema: JsonSchema = {
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
