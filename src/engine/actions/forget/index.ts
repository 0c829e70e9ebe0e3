// `forget`: the caller forgets the user (as state=forget) after this turn's reply; the turn goes on.

import { defineAction } from '../../action-definition.js';
import { actionSchema } from '../schema-parts.js';

export const forgetAction = defineAction({
  type: 'forget',
  needsId: false,
  schema: actionSchema('forget', {}),
  *run(_action, rc) {
    rc.effect({ kind: 'forget' });
  },
});
