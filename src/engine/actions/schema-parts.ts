// The building blocks of action declarations. Each action folder declares its fields once with
// TypeBox: the declaration is the JSON Schema fragment (bots/schema.ts assembles /schema/bot.json
// from them) and, through Static, the TypeScript type its `run` receives. Every fragment is an
// object with `type: {const}`, an optional GUID `id` and `additionalProperties: false`.

import { Type, type TProperties } from 'typebox';
import type { Action } from '../bot-file.js';

/** An operation list: the bot schema resolves the reference to "actions of any type". */
export const OPERATIONS = Type.Unsafe<Action[]>({ $ref: '#/$defs/actions' });
/** A `buttons` list or a carousel card's buttons: each a `button` or a `link`. */
export const BUTTON_OR_LINK_LIST = Type.Unsafe<Action[]>({ type: 'array', items: { $ref: '#/$defs/buttonOrLink' } });
export const TEXT = Type.String();
export const NON_EMPTY_TEXT = Type.String({ minLength: 1 });
/** Ids are GUIDs (bot-format.md "Actions"); optional on every action, generated on save where needed. */
export const GUID = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });

/** The `type` discriminator: a bare `{const}` (the dispatcher has already matched it by then). */
const typeConst = <T extends string>(type: T) => Type.Unsafe<T>({ const: type });

/**
 * One action type's declaration. Fields are required unless wrapped in Type.Optional; `extra`
 * adds keywords to the object (e.g. an anyOf of required sets).
 */
export function actionSchema<T extends string, P extends TProperties>(type: T, properties: P, extra: Record<string, unknown> = {}) {
  return Type.Object({ type: typeConst(type), id: Type.Optional(GUID), ...properties }, { additionalProperties: false, ...extra });
}
