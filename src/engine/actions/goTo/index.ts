// `goTo`: moves the conversation (bot-format.md rule 2). The action only resolves the target; the
// turn runner makes the move, counts it against the loop guard and runs the target.

import { Type } from 'typebox';
import type { Action } from '../../bot-file.js';
import { defineAction, type SaveCheckContext, type SaveProblem } from '../../action-definition.js';
import { findBehaviour, findInteraction, resolvePosition, type CompiledInteraction } from '../../compiled.js';
import type { RunContext } from '../../run-context.js';
import { isTemplate } from '../fields.js';
import { actionSchema, TEXT } from '../schema-parts.js';

export const GOTO_MODES = ['absolute', 'start', 'previous', 'fallback', 'bookmark'] as const;

export const goToAction = defineAction({
  type: 'goTo',
  needsId: false,
  schema: actionSchema('goTo', {
    mode: Type.Enum([...GOTO_MODES]),
    behaviour: Type.Optional(TEXT),
    interaction: Type.Optional(TEXT),
    cancelFurtherExecution: Type.Optional(Type.Boolean()),
  }),
  check: checkTarget,
  *run(action, rc) {
    const target = targetOf(action, rc);
    if (target === null) return; // a missing target makes the action do nothing
    return { kind: 'goto', target, cancelFurtherExecution: action.cancelFurtherExecution === true };
  },
});

/**
 * Save-time rule: an absolute goTo with literal names must land somewhere. Without `behaviour` it
 * targets the current behaviour, which is only known for actions inside a behaviour. Templates
 * (`{{...}}`) are only known at run time, and names the schema rejected cannot be judged.
 */
function checkTarget(action: Action, context: SaveCheckContext): SaveProblem[] {
  if (action.mode !== 'absolute') return [];
  return targetProblems(action.behaviour, action.interaction, context, 'goTo target');
}

/** Whether literal names land somewhere (also an agent's `flow` tool); `label` starts each message. */
export function targetProblems(behaviour: unknown, interaction: unknown, context: SaveCheckContext, label: string): SaveProblem[] {
  let target: string;
  if (typeof behaviour === 'string') {
    if (isTemplate(behaviour)) return [];
    const known = context.hasBehaviour(behaviour);
    if (known === false) return [{ path: ['behaviour'], message: `${label}: there is no behaviour named '${behaviour}'` }];
    if (known === null) return [];
    target = behaviour;
  } else if (behaviour === undefined && context.behaviourName !== undefined) {
    target = context.behaviourName;
  } else return [];
  if (typeof interaction !== 'string' || isTemplate(interaction)) return [];
  const names = context.interactionsOf(target);
  if (names === null || names.has(interaction.toLowerCase())) return [];
  return [{ path: ['interaction'], message: `${label}: behaviour '${target}' has no interaction named '${interaction}'` }];
}

function targetOf(action: Action, rc: RunContext): CompiledInteraction | null {
  const current = rc.currentBehaviour();
  switch (action.mode ?? 'absolute') {
    case 'absolute': {
      // behaviour absent = the current one; interaction absent = that behaviour's start
      const behaviourName = rc.render(action.behaviour);
      const interactionName = rc.render(action.interaction);
      if (behaviourName === '' && interactionName === '') return null;
      const behaviour = behaviourName !== '' ? findBehaviour(rc.bot, behaviourName) : current;
      if (behaviour === null) return null;
      return interactionName !== '' ? findInteraction(behaviour, interactionName) : behaviour.start;
    }
    case 'start':
      return current?.start ?? null;
    case 'previous':
      return resolvePosition(rc.bot, rc.state.previous);
    case 'fallback':
      return current?.fallback ?? rc.bot.startBehaviour?.fallback ?? null;
    case 'bookmark':
      return resolvePosition(rc.bot, rc.state.bookmark);
    default:
      return null;
  }
}
