// A picture of a bot's flow (docs/analytics.md "Flow"): the live version's behaviours and
// interactions as nodes, and the moves a designer wrote as edges: goTo actions with literal names,
// and the goTos reached through a button's or card's onClick, an input's onSuccess or onGiveUp, or
// a trigger. Targets built from templates or relative modes (start, previous, fallback, bookmark)
// are only known while a conversation runs, so they are not drawn. Pure: built from the compiled bot.
import type { Action } from '../engine/bot-file.js';
import { findBehaviour, findInteraction, type CompiledBehaviour, type CompiledBot, type CompiledInteraction } from '../engine/compile.js';
import { isTemplate } from '../engine/actions/fields.js';
import { actionRegistry } from '../engine/registry.js';
import { walkActions, type Obj, type Segment } from '../engine/walk.js';
import type { BotFlow, EdgeKind, FlowEdge, FlowNode } from './model.js';

/** Edges kept at most: a bot file is bounded, but a picture with more is unreadable anyway. */
export const MAX_EDGES = 2000;

const behaviourId = (b: CompiledBehaviour) => `b:${b.name}`;
const interactionId = (i: CompiledInteraction) => `i:${i.behaviour.name}/${i.name}`;
const literal = (value: unknown): value is string => typeof value === 'string' && value !== '' && !isTemplate(value);

/** Where an absolute goTo with literal names lands; null when it is not drawable or lands nowhere. */
function targetOf(action: Obj, current: CompiledBehaviour | null, bot: CompiledBot): CompiledInteraction | null {
  if (action.mode !== 'absolute') return null;
  const { behaviour: b, interaction: i } = action;
  if (b !== undefined && !literal(b)) return null;
  if (i !== undefined && !literal(i)) return null;
  const behaviour = b === undefined ? current : findBehaviour(bot, b);
  if (!behaviour) return null;
  return i === undefined ? behaviour.start : findInteraction(behaviour, i);
}

/** How a goTo at `path` is reached: the nearest onClick, onSuccess or onGiveUp above it. */
function kindOf(path: Segment[], inTrigger: boolean): EdgeKind {
  for (let at = path.length - 1; at >= 0; at--) {
    if (path[at] === 'onClick') return 'button';
    if (path[at] === 'onSuccess') return 'success';
    if (path[at] === 'onGiveUp') return 'giveUp';
  }
  return inTrigger ? 'trigger' : 'goTo';
}

/**
 * What fires a trigger, as a designer wrote it: "text" for a text pattern, /regex/, or
 * "intent name"; compiled triggers keep the file's order, so the n-th is the file's n-th.
 */
function triggerLabel(source: unknown, index: number): string {
  const t = (typeof source === 'object' && source !== null ? source : {}) as { match?: unknown; intent?: unknown };
  if (typeof t.intent === 'string') return `intent ${t.intent}`;
  if (typeof t.match === 'string') return `"${t.match}"`;
  const regex = (t.match as { regex?: unknown } | undefined)?.regex;
  if (typeof regex === 'string') return `/${regex}/`;
  return `trigger ${index + 1}`;
}

/** Whether the actions ask for a person or give the conversation to one. */
function handsOver(actions: readonly Action[]): boolean {
  let found = false;
  walkActions(actions, [], actionRegistry, (node) => {
    if (node.type === 'operator' && (node.mode === 'request' || node.mode === 'takeover')) found = true;
  });
  return found;
}

export function flowOf(bot: CompiledBot): BotFlow {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const seen = new Set<string>();
  const addEdges = (actions: readonly Action[], from: string, current: CompiledBehaviour | null, trigger: string | null) => {
    // `parent` is the nearest enclosing action: for a goTo in onClick, the button itself.
    walkActions(actions, [], actionRegistry, (node, path, _embedded, parent) => {
      if (node.type !== 'goTo' || edges.length >= MAX_EDGES) return;
      const target = targetOf(node, current, bot);
      if (!target) return;
      const kind = kindOf(path, trigger !== null);
      const label = kind === 'button' ? (typeof parent?.text === 'string' ? parent.text : null) : kind === 'trigger' ? trigger : null;
      const edge = { From: from, To: interactionId(target), Kind: kind, Label: label };
      const key = JSON.stringify(edge);
      if (seen.has(key)) return;
      seen.add(key);
      edges.push(edge);
    });
  };
  const sourceBehaviour = (name: string) => (Array.isArray(bot.source.behaviours) ? bot.source.behaviours.find((b) => b?.name === name) : undefined);
  for (const behaviour of bot.behaviours.values()) {
    nodes.push({ Id: behaviourId(behaviour), Kind: 'behaviour', Name: behaviour.name, Behaviour: null, Start: behaviour === bot.startBehaviour, Fallback: false, HandOver: false });
    if (behaviour.start) edges.push({ From: behaviourId(behaviour), To: interactionId(behaviour.start), Kind: 'start', Label: null });
    for (const interaction of behaviour.interactions.values()) {
      nodes.push({
        Id: interactionId(interaction),
        Kind: 'interaction',
        Name: interaction.name,
        Behaviour: behaviour.name,
        Start: interaction === behaviour.start,
        Fallback: interaction === behaviour.fallback,
        HandOver: handsOver(interaction.actions),
      });
      addEdges(interaction.actions, interactionId(interaction), behaviour, null);
    }
    behaviour.triggers.forEach((t, n) => addEdges(t.actions, behaviourId(behaviour), behaviour, triggerLabel(sourceBehaviour(behaviour.name)?.triggers?.[n], n)));
  }
  // Bot-level triggers fire wherever the conversation is: drawn from the start behaviour.
  const start = bot.startBehaviour;
  if (start) bot.triggers.forEach((t, n) => addEdges(t.actions, behaviourId(start), null, triggerLabel(bot.source.triggers?.[n], n)));
  return { Nodes: nodes, Edges: edges };
}
