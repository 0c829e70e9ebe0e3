// `forget`: the caller forgets the user (as state=forget) after this turn's reply; the turn goes on.

import type { ActionDefinition } from '../../action-definition.js';
import { actionSchema } from '../schema-parts.js';

export const forgetAction: ActionDefinition = {
  type: 'forget',
  needsId: false,
  schema: actionSchema('forget', {}),
  *run(_action, rc) {
    rc.effect({ kind: 'forget' });
  },
};
