// Small builders for the action schemas, so every folder writes its schema the same way: an
// object with `type: {const}`, an optional `id`, `additionalProperties: false` (see action-definition.ts).

export const OPERATIONS = { $ref: '#/$defs/actions' } as const;
export const BUTTON_OR_LINK_LIST = { type: 'array', items: { $ref: '#/$defs/buttonOrLink' } } as const;
export const TEXT = { type: 'string' } as const;
export const NON_EMPTY_TEXT = { type: 'string', minLength: 1 } as const;
/** Ids are GUIDs (bot-format.md "Actions"); optional on every action, generated on save where needed. */
export const GUID = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
} as const;

export function actionSchema(
  type: string,
  properties: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['type', ...required],
    properties: { type: { const: type }, id: GUID, ...properties },
    ...extra,
  };
}
