// `delay`: a pause the client shows as typing (Type 25, TypeDelay = ms).

import type { ActionDefinition } from '../../action-definition.js';
import { numberField } from '../fields.js';
import { actionSchema } from '../schema-parts.js';
import { PartType } from '../../parts.js';

export const delayAction: ActionDefinition = {
  type: 'delay',
  needsId: false,
  schema: actionSchema('delay', { ms: { type: 'integer', minimum: 0 } }, ['ms']),
  *run(action, rc) {
    const ms = numberField(action.ms);
    if (ms === null || ms < 0) return;
    rc.say(rc.part(PartType.Delay, { TypeDelay: Math.round(ms) }));
  },
};
