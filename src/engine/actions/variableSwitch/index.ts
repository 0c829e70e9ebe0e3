// `variableSwitch`: runs `then` when the variable meets the criterion, else `else` (see criteria.ts).

import type { ActionDefinition } from '../../action-definition.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS, TEXT } from '../schema-parts.js';
import { CRITERIA, isCriterion, meets } from './criteria.js';

export const variableSwitchAction: ActionDefinition = {
  type: 'variableSwitch',
  needsId: false,
  schema: actionSchema(
    'variableSwitch',
    { variable: NON_EMPTY_TEXT, criteria: { enum: [...CRITERIA] }, value: TEXT, value2: TEXT, then: OPERATIONS, else: OPERATIONS },
    ['variable', 'criteria', 'then'],
  ),
  *run(action, rc) {
    if (typeof action.variable !== 'string' || !isCriterion(action.criteria)) return;
    const holds = meets(action.criteria, rc.getVariable(action.variable), rc.render(action.value), rc.render(action.value2));
    return yield* rc.runActions(holds ? action.then : action.else);
  },
};
