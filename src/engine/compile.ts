// A live bot version is compiled once into lookup indexes, so that a turn never scans the bot file:
// names (matched case-insensitively), the start behaviour/interaction, fallbacks, text triggers and
// every action carrying an `id`, wherever it is nested. Pure: the same file gives the same result.
// The compiler trusts nothing: a malformed part of the file is ignored, never a crash.

import type { Action, Behaviour, BotFile, Interaction, Trigger } from './bot-file.js';
import { matchesPattern } from './matching.js';
import { compileNlp, intentFires, type CompiledNlp } from './nlp/compiled-nlp.js';
import { actionRegistry } from './registry.js';
import { walkActions } from './walk.js';
import type { ActionLocation, CompiledBehaviour, CompiledBot, CompiledInteraction, CompiledTrigger } from './compiled.js';

// The compiled bot's types and lookups live in compiled.ts (action types use them, and this
// module depends on the action registry).
export * from './compiled.js';

const DEFAULT_WORDS_PER_MINUTE = 200;

export function compileBot(bot: BotFile): CompiledBot {
  const behaviours = new Map<string, CompiledBehaviour>();
  const actionsById = new Map<string, ActionLocation>();
  const behaviourByApiKey = new Map<string, string>();
  let startBehaviour: CompiledBehaviour | null = null;
  const nlp = compileNlp(bot?.nlp);

  for (const source of arrayOf<Behaviour>(bot?.behaviours)) {
    if (!isObject(source) || typeof source.name !== 'string') continue;
    const key = source.name.toLowerCase();
    if (behaviours.has(key)) continue; // names are unique on save; first one wins otherwise
    const behaviour = compileBehaviour(source, actionsById, nlp);
    behaviours.set(key, behaviour);
    if (behaviour.apiKey !== null && !behaviourByApiKey.has(behaviour.apiKey)) behaviourByApiKey.set(behaviour.apiKey, behaviour.name);
    if (source.start === true && startBehaviour === null) startBehaviour = behaviour;
  }
  // A file without a start behaviour fails validation; at run time the first one stands in.
  startBehaviour ??= behaviours.values().next().value ?? null;

  const triggers = compileTriggers(bot?.triggers, nlp, null);
  for (const trigger of triggers) indexIds(trigger.actions, { behaviour: null, interaction: null }, actionsById);

  const settings = isObject(bot?.settings) ? bot.settings : {};
  const wpm = settings.wordsPerMinute;
  return {
    source: bot,
    behaviours,
    startBehaviour,
    triggers,
    actionsById,
    behaviourByApiKey,
    enableTypeSpeed: settings.enableTypeSpeed === true,
    wordsPerMinute: typeof wpm === 'number' && Number.isFinite(wpm) && wpm > 0 ? wpm : DEFAULT_WORDS_PER_MINUTE,
    defaultVariables: stringRecord(bot?.variables),
    nlp,
    knowledge: isObject(bot?.knowledge)
      ? {
          beforeFallback: bot.knowledge.beforeFallback === true,
          instructions: typeof bot.knowledge.instructions === 'string' ? bot.knowledge.instructions : '',
          minScore: typeof bot.knowledge.minScore === 'number' && bot.knowledge.minScore >= 0 && bot.knowledge.minScore <= 1 ? bot.knowledge.minScore : null,
        }
      : null,
  };
}

function compileBehaviour(source: Behaviour, actionsById: Map<string, ActionLocation>, nlp: CompiledNlp | null): CompiledBehaviour {
  const interactions = new Map<string, CompiledInteraction>();
  const behaviour = {
    name: source.name,
    apiKey: typeof source.apiKey === 'string' && source.apiKey !== '' ? source.apiKey : null,
    triggers: compileTriggers(source.triggers, nlp, source.name),
    interactions,
    start: null as CompiledInteraction | null,
    fallback: null as CompiledInteraction | null,
  };
  for (const item of arrayOf<Interaction>(source.interactions)) {
    if (!isObject(item) || typeof item.name !== 'string') continue;
    const key = item.name.toLowerCase();
    if (interactions.has(key)) continue;
    const interaction: CompiledInteraction = {
      name: item.name,
      behaviour,
      actions: arrayOf<Action>(item.actions),
      enableUserChat: item.enableUserChat !== false,
    };
    interactions.set(key, interaction);
    if (item.start === true) behaviour.start ??= interaction;
    if (item.fallback === true) behaviour.fallback ??= interaction;
    indexIds(interaction.actions, { behaviour, interaction }, actionsById);
  }
  behaviour.start ??= interactions.values().next().value ?? null;
  for (const trigger of behaviour.triggers) indexIds(trigger.actions, { behaviour, interaction: null }, actionsById);
  return behaviour;
}

/** Text triggers and intent triggers, in file order: the first that fires wins. */
function compileTriggers(value: unknown, nlp: CompiledNlp | null, owner: string | null): CompiledTrigger[] {
  const triggers: CompiledTrigger[] = [];
  for (const [index, source] of arrayOf<Trigger & { match?: unknown; intent?: unknown; minScore?: unknown }>(value).entries()) {
    if (!isObject(source)) continue;
    const { match, intent, minScore } = source;
    const score = typeof minScore === 'number' && Number.isFinite(minScore) ? minScore : null;
    triggers.push({
      matches: typeof intent === 'string' ? (_text, understood) => intentFires(understood ?? null, intent, score, nlp) : (text) => matchesPattern(match, text),
      ...describeTrigger(match, intent),
      owner,
      index,
      variable: typeof source.variable === 'string' && source.variable !== '' ? source.variable : null,
      whileWaiting: source.whileWaiting === true,
      actions: arrayOf<Action>(source.actions),
    });
  }
  return triggers;
}

/** A trigger in the designer's words: what kind it is and what it matches, as written. */
function describeTrigger(match: unknown, intent: unknown): Pick<CompiledTrigger, 'kind' | 'label'> {
  if (typeof intent === 'string') return { kind: 'intent', label: intent };
  if (isObject(match)) return { kind: 'regex', label: typeof match.regex === 'string' ? match.regex : '' };
  return { kind: 'keyword', label: typeof match === 'string' ? match : '' };
}

type Owner = Pick<ActionLocation, 'behaviour' | 'interaction'>;

/**
 * Indexes every action with an id in an operation list, however deeply nested, with the walker
 * that validation and id generation use (walk.ts): the same actions, found the same way. The first
 * action with an id wins (ids are unique on save).
 */
function indexIds(actions: readonly Action[], owner: Owner, out: Map<string, ActionLocation>): void {
  walkActions(actions, [], actionRegistry, (node, _path, _embedded, parent) => {
    if (typeof node.type !== 'string' || typeof node.id !== 'string' || node.id === '' || out.has(node.id)) return;
    out.set(node.id, { action: node as Action, ...owner, container: (parent as Action | null) ?? null });
  });
}

// ---- lookups used by the turn runner and the actions ----

function arrayOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

// biome-ignore lint/suspicious/noExplicitAny: callers read fields of unvalidated bot JSON after this check
function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'string') out[name] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[name] = String(item);
  }
  return out;
}
