// A compiled bot: the shape the engine runs (built by compile.ts), and the lookups on it that
// action types use. Kept apart from compile.ts, which depends on the action registry, so that
// action types can use these without importing the registry that imports them.
import type { Action, BotFile } from './bot-file.js';
import type { Position } from './types.js';
import type { CompiledNlp, Understood } from './nlp/compiled-nlp.js';

export interface CompiledInteraction {
  readonly name: string;
  readonly behaviour: CompiledBehaviour;
  readonly actions: readonly Action[];
  /** the reply's EnableUserChat when a turn ends here (default true) */
  readonly enableUserChat: boolean;
}

export interface CompiledTrigger {
  /** `understood` is what the text means to the bot's model (null when the bot has no `nlp`) */
  matches(text: string, understood?: Understood | null): boolean;
  /** what it matches on: alternatives (`match` text), a `regex`, or an `intent` (the preview explains it by these) */
  readonly kind: 'keyword' | 'regex' | 'intent';
  /** the alternatives, the pattern or the intent name, as written */
  readonly label: string;
  /** the behaviour that holds it; null for a bot-level trigger */
  readonly owner: string | null;
  /** its place in its list (the JSON path's index) */
  readonly index: number;
  readonly variable: string | null;
  readonly whileWaiting: boolean;
  readonly actions: readonly Action[];
}

export interface CompiledBehaviour {
  readonly name: string;
  readonly apiKey: string | null;
  readonly triggers: readonly CompiledTrigger[];
  /** keyed by lower-cased name */
  readonly interactions: ReadonlyMap<string, CompiledInteraction>;
  readonly start: CompiledInteraction | null;
  readonly fallback: CompiledInteraction | null;
}

/** Where an action with an `id` lives: payloads and waiting inputs are resolved through this. */
export interface ActionLocation {
  readonly action: Action;
  /** null for actions inside bot-level triggers */
  readonly behaviour: CompiledBehaviour | null;
  /** null for actions inside triggers: they run wherever the conversation is */
  readonly interaction: CompiledInteraction | null;
  /** the nearest enclosing action (e.g. the `carousel` or `buttons` holding a button), null at top level */
  readonly container: Action | null;
}

export interface CompiledBot {
  readonly source: BotFile;
  /** keyed by lower-cased name */
  readonly behaviours: ReadonlyMap<string, CompiledBehaviour>;
  readonly startBehaviour: CompiledBehaviour | null;
  readonly triggers: readonly CompiledTrigger[];
  readonly actionsById: ReadonlyMap<string, ActionLocation>;
  /** behaviour API key → behaviour name (ForcedBehaviourKey, DefaultBehaviour.APIKey) */
  readonly behaviourByApiKey: ReadonlyMap<string, string>;
  readonly enableTypeSpeed: boolean;
  readonly wordsPerMinute: number;
  /** copied into every new conversation */
  readonly defaultVariables: Readonly<Record<string, string>>;
  /** intents and entities (understanding.md); null when the bot has no `nlp` section: no classification at all */
  readonly nlp: CompiledNlp | null;
  /** the top-level `knowledge` section (knowledge.md "In the bot file"); null when absent */
  readonly knowledge: { readonly beforeFallback: boolean; readonly instructions: string; readonly minScore: number | null } | null;
}

export function findBehaviour(bot: CompiledBot, name: string): CompiledBehaviour | null {
  return bot.behaviours.get(name.toLowerCase()) ?? null;
}

export function findInteraction(behaviour: CompiledBehaviour, name: string): CompiledInteraction | null {
  return behaviour.interactions.get(name.toLowerCase()) ?? null;
}

/** The start interaction of the start behaviour: where new, reset and lost conversations go. */
export function startInteraction(bot: CompiledBot): CompiledInteraction | null {
  return bot.startBehaviour?.start ?? null;
}

/** A stored position in this live version, or null when the names no longer exist. */
export function resolvePosition(bot: CompiledBot, position: Position | null): CompiledInteraction | null {
  if (position === null) return null;
  const behaviour = findBehaviour(bot, position.behaviour);
  return behaviour === null ? null : findInteraction(behaviour, position.interaction);
}

export function positionOf(interaction: CompiledInteraction): Position {
  return { behaviour: interaction.behaviour.name, interaction: interaction.name };
}
