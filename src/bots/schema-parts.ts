// The small builders every part of the bot schema (schema.ts, schema-settings.ts,
// schema-understanding.ts) writes its fields with; a file of its own so those parts need not
// import schema.ts, which imports them.

export type JsonSchema = Record<string, unknown>;

export const str = (description: string): JsonSchema => ({ type: 'string', description });
export const bool = (description: string): JsonSchema => ({ type: 'boolean', description });
export const name = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });
