// `goTo`: moves the conversation (bot-format.md rule 2). The action only resolves the target; the
// turn runner makes the move, counts it against the loop guard and runs the target.

import type { Action } from '../../../bots/bot-file.js';
import type { ActionDefinition } from '../../action-definition.js';
import { findBehaviour, findInteraction, resolvePosition, type CompiledInteraction } from '../../compile.js';
import type { RunContext } from '../../run-context.js';
import { actionSchema, TEXT } from '../schema-parts.js';

export const GOTO_MODES = ['absolute', 'start', 'previous', 'fallback', 'bookmark'] as const;

export const goToAction: ActionDefinition = {
  type: 'goTo',
  needsId: false,
  schema: actionSchema(
    'goTo',
    { mode: { enum: [...GOTO_MODES] }, behaviour: TEXT, interaction: TEXT, cancelFurtherExecution: { type: 'boolean' } },
    ['mode'],
  ),
  *run(action, rc) {
    const target = targetOf(action, rc);
    if (target === null) return; // a missing target makes the action do nothing
    return { kind: 'goto', target, cancelFurtherExecution: action.cancelFurtherExecution === true };
  },
};

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
