// What every action folder under engine/actions/<type>/ exports: its JSON Schema fragment (used
// to build /schema/bot.json) and how it runs. The registry (engine/registry.ts) is a map keyed by type.

import type { Action } from '../bots/bot-file.js';
import type { ActionRun, RunContext } from './run-context.js';
import type { WaitingInput } from './types.js';

/** The part of a definition that the schema builder needs (type, schema, id generation). */
export interface ActionSchemaDefinition {
  /** the `type` value in bot files */
  type: string;
  /** JSON Schema (draft 2020-12 / ajv) of one action object of this type; `additionalProperties: false`.
   *  Operation lists are written `{ "$ref": "#/$defs/actions" }`; a list of buttons/links
   *  `{ "$ref": "#/$defs/buttonOrLink" }` items. */
  schema: Record<string, unknown>;
  /** true when bot files must carry an `id` (GUID) for this action (buttons, inputs): generated on save when missing */
  needsId: boolean;
}

export interface ActionDefinition extends ActionSchemaDefinition {
  /** Runs the action where it stands in a list. Malformed actions return without effect. */
  run(action: Action, rc: RunContext): ActionRun;
  /** Clickable actions only (button): what a command payload naming this action's id does.
   *  `container` is the enclosing action (a carousel stores the click in its variable). */
  click?(action: Action, rc: RunContext, container: Action | null): ActionRun;
  /** Waiting actions only (input): handles the user's text while this action waits. */
  answer?(action: Action, rc: RunContext, text: string, waiting: WaitingInput): ActionRun;
}
