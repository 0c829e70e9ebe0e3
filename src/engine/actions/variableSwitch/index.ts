// `variableSwitch`: runs `then` when the variable meets the criterion, else `else` (see criteria.ts).

import { Type } from 'typebox';
import type { Action } from '../../bot-file.js';
import { defineAction } from '../../action-definition.js';
import { regexProblem } from '../../matching.js';
import { isTemplate } from '../fields.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS, TEXT } from '../schema-parts.js';
import { CRITERIA, isCriterion, meets } from './criteria.js';

export const variableSwitchAction = defineAction({
  type: 'variableSwitch',
  needsId: false,
  schema: actionSchema('variableSwitch', {
    variable: NON_EMPTY_TEXT,
    criteria: Type.Enum([...CRITERIA]),
    value: Type.Optional(TEXT),
    value2: Type.Optional(TEXT),
    then: OPERATIONS,
    else: Type.Optional(OPERATIONS),
  }),
  /** Save-time rule: a literal `matches` pattern must be one the engine can run (templates are known only at run time). */
  check(action) {
    const { criteria, value } = action as Action;
    if (criteria !== 'matches' || typeof value !== 'string' || isTemplate(value)) return [];
    const error = regexProblem(value);
    return error === null ? [] : [{ path: ['value'], message: error }];
  },
  *run(action, rc) {
    if (typeof action.variable !== 'string' || !isCriterion(action.criteria)) return;
    const holds = meets(action.criteria, rc.getVariable(action.variable), rc.render(action.value), rc.render(action.value2));
    return yield* rc.runActions(holds ? action.then : action.else);
  },
});
