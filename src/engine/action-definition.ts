// What every action folder under engine/actions/<type>/ declares, once: its fields (a TypeBox
// declaration that is both the JSON Schema fragment of /schema/bot.json and the TypeScript type
// `run` receives), its save-time checks, whether it needs an id, and how it runs. Its nested
// actions are found by the walker (walk.ts) from the same declaration, for compile, ids and rules.
// The registry (engine/registry.ts) is a map keyed by type.

import type { Static, TObject } from 'typebox';
import type { Action } from './bot-file.js';
import type { ActionRun, RunContext } from './run-context.js';
import type { ApprovalDecision, WaitingInput } from './types.js';

/** One step of a JSON path into a bot file: a property name or an array index. */
export type Segment = string | number;

/** A problem a save-time check found, at a path relative to the action. */
export interface SaveProblem {
  path: Segment[];
  message: string;
}

/** What a save-time check may ask about the rest of the file (bots/rules.ts answers). */
export interface SaveCheckContext {
  /** the name of the behaviour holding the action; undefined in bot-wide triggers or when unnamed */
  readonly behaviourName: string | undefined;
  /** whether the file has that behaviour (case-insensitive); null when its names cannot tell */
  hasBehaviour(name: string): boolean | null;
  /** the lower-cased interaction names of that behaviour; null when unknown or not listable */
  interactionsOf(behaviour: string): ReadonlySet<string> | null;
  /** whether the file's nlp section declares that entity (case-insensitive); null when it cannot tell */
  hasEntity(name: string): boolean | null;
}

/** The part of a definition that the schema builder, the walker and the save rules need. */
export interface ActionSchemaDefinition {
  /** the `type` value in bot files */
  type: string;
  /** the fields as a JSON Schema object, declared with TypeBox (see actions/schema-parts.ts) and
   *  read here as plain JSON Schema. Operation lists are `{ "$ref": "#/$defs/actions" }`; lists of
   *  buttons/links `{ "$ref": "#/$defs/buttonOrLink" }` items. */
  schema: Readonly<Record<string, unknown>>;
  /** true when bot files must carry an `id` (GUID) for this action (buttons, inputs): generated on save when missing */
  needsId: boolean;
  /** Save-time rules a JSON Schema cannot express (bot-format.md "Rules checked on save"). The
   *  action may have failed the schema: read its fields defensively. */
  check?(action: Action, context: SaveCheckContext): SaveProblem[];
}

/**
 * A definition with its declared action type. Bots are validated on save, but the engine also runs
 * files it did not validate (older versions, hand-made tests), so `run` still reads defensively
 * where a wrong value could misbehave: a malformed action is skipped (bot-format.md rule 3).
 */
export interface TypedActionDefinition<S extends TObject> {
  type: string;
  schema: S;
  needsId: boolean;
  check?(action: Static<S>, context: SaveCheckContext): SaveProblem[];
  /** Runs the action where it stands in a list. */
  run(action: Static<S>, rc: RunContext): ActionRun;
  /** Clickable actions only (button): what a command payload naming this action's id does.
   *  `container` is the enclosing action (a carousel stores the click in its variable). */
  click?(action: Static<S>, rc: RunContext, container: Action | null): ActionRun;
  /** Waiting actions only (input): handles the user's text while this action waits. */
  answer?(action: Static<S>, rc: RunContext, text: string, waiting: WaitingInput): ActionRun;
  /** Agents only: a colleague decided the call the action waits on (agents.md approvals). */
  resume?(action: Static<S>, rc: RunContext, decision: ApprovalDecision): ActionRun;
  /** true when, while it waits, every user text goes to `answer` before any trigger (agent) */
  holdsConversation?: boolean;
}

/** A registered definition: the registry holds actions of every type, so the type is erased. */
export interface ActionDefinition extends ActionSchemaDefinition {
  run(action: Action, rc: RunContext): ActionRun;
  click?(action: Action, rc: RunContext, container: Action | null): ActionRun;
  answer?(action: Action, rc: RunContext, text: string, waiting: WaitingInput): ActionRun;
  resume?(action: Action, rc: RunContext, decision: ApprovalDecision): ActionRun;
  holdsConversation?: boolean;
}

/** Declares an action type: TypeScript checks `run` & co. against the declared fields. */
export function defineAction<S extends TObject>(definition: TypedActionDefinition<S>): ActionDefinition {
  // The dispatcher hands each definition only actions whose `type` is its own; a TypeBox object
  // is a plain JSON Schema object at run time.
  return definition as unknown as ActionDefinition;
}
