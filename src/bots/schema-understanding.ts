// The bot file's understanding sections (understanding.md, knowledge.md): `nlp` (intents and
// entities, with the save-time caps of NLP_LIMITS) and `knowledge`. Part of the bot schema
// (schema.ts); kept apart so that each file reads as one thing.
import { DEFAULT_MIN_SCORE } from '../shared/knowledge-defaults.js';
import { NLP_LANGUAGES, NLP_LIMITS } from '../understanding/languages.js';
import { bool, type JsonSchema } from './schema-parts.js';

export const nlpSchema: JsonSchema = {
  type: 'object',
  description: 'Intents and entities trained from examples when a version is published (understanding.md).',
  additionalProperties: false,
  properties: {
    language: { enum: [...NLP_LANGUAGES], description: 'the language of the examples and of what users write (default "en")' },
    threshold: { type: 'number', minimum: 0, maximum: 1, description: 'lowest score for an intent to count (default 0.7)' },
    intents: {
      type: 'array',
      maxItems: NLP_LIMITS.intents,
      items: {
        type: 'object',
        required: ['name', 'examples'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100, description: 'unique (case-insensitive); "none" is reserved' },
          examples: {
            type: 'array',
            minItems: 2,
            maxItems: NLP_LIMITS.examplesPerIntent,
            items: { type: 'string', minLength: 1, maxLength: NLP_LIMITS.exampleLength },
            description: 'what users write for this intent; at least two',
          },
        },
      },
    },
    entities: {
      type: 'array',
      maxItems: NLP_LIMITS.entities,
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        description: 'found by synonyms (values) or by a regular expression (regex): exactly one of them',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100, description: 'unique (case-insensitive); found values go to entity_<name>' },
          values: {
            type: 'object',
            description: 'canonical value → its spellings (the value itself always counts)',
            additionalProperties: { type: 'array', maxItems: NLP_LIMITS.spellingsPerValue, items: { type: 'string', minLength: 1, maxLength: NLP_LIMITS.spellingLength } },
          },
          regex: { type: 'string', minLength: 1, description: 'RE2 syntax, case-sensitive unless it starts with (?i)' },
        },
      },
    },
    aiFallback: bool('when no intent reaches the threshold, let the AI provider choose one (default false)'),
  },
};

export const knowledgeSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: "answers from the bot's knowledge sources (knowledge.md)",
  properties: {
    beforeFallback: { type: 'boolean', description: 'ask the knowledge with a user text no trigger or intent takes; when it is answered the fallback does not run' },
    instructions: { type: 'string', maxLength: 4096, description: 'for the model, when the bot has an AI provider' },
    minScore: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      title: 'Minimum score for an answer',
      description: `How sure search must be before the bot answers from its documents, from 0 to 1 (default ${DEFAULT_MIN_SCORE}). Below it the bot says it has no answer (the knowledge step's onNoAnswer runs). Raise it if the bot answers questions its documents do not cover; lower it if it misses answers that are there.`,
    },
  },
};
