// `delay`: a pause the client shows as typing (Type 25, TypeDelay = ms).

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { numberField } from '../fields.js';
import { actionSchema } from '../schema-parts.js';
import { PartType } from '../../parts.js';

export const delayAction = defineAction({
  type: 'delay',
  needsId: false,
  schema: actionSchema('delay', { ms: Type.Integer({ minimum: 0 }) }),
  *run(action, rc) {
    const ms = numberField(action.ms);
    if (ms === null || ms < 0) return;
    rc.say(rc.part(PartType.Delay, { TypeDelay: Math.round(ms) }));
  },
});
