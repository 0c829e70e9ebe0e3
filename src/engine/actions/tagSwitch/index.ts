// `tagSwitch`: runs `then` when the tag is present (or absent with `present: false`), else `else`.

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS } from '../schema-parts.js';

export const tagSwitchAction = defineAction({
  type: 'tagSwitch',
  needsId: false,
  schema: actionSchema('tagSwitch', {
    tag: NON_EMPTY_TEXT,
    present: Type.Optional(Type.Boolean()),
    then: OPERATIONS,
    else: Type.Optional(OPERATIONS),
  }),
  *run(action, rc) {
    if (typeof action.tag !== 'string') return;
    const wanted = action.present !== false;
    const holds = rc.state.tags.includes(rc.render(action.tag)) === wanted;
    return yield* rc.runActions(holds ? action.then : action.else);
  },
});
