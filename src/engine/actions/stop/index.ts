// `stop`: ends the turn here.

import { defineAction } from '../../action-definition.js';
import { actionSchema } from '../schema-parts.js';

export const stopAction = defineAction({
  type: 'stop',
  needsId: false,
  schema: actionSchema('stop', {}),
  *run() {
    return { kind: 'end', reason: 'stop' };
  },
});
