// `stop`: ends the turn here.

import type { ActionDefinition } from '../../action-definition.js';
import { actionSchema } from '../schema-parts.js';

export const stopAction: ActionDefinition = {
  type: 'stop',
  needsId: false,
  schema: actionSchema('stop', {}),
  *run() {
    return { kind: 'end', reason: 'stop' };
  },
};
