// `operator`: sets the control state (request = 1, takeover = 2, bot = 0) through a `control` effect.
// After `request` or `takeover` the bot has handed the conversation away: the turn ends there.

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import type { Effect } from '../../types.js';
import { actionSchema } from '../schema-parts.js';

const MODES = ['request', 'takeover', 'bot'] as const;
type Mode = (typeof MODES)[number];

export const operatorAction = defineAction({
  type: 'operator',
  needsId: false,
  schema: actionSchema('operator', { mode: Type.Enum([...MODES]), operator: Type.Optional(Type.String({ minLength: 1 })) }),
  *run(action, rc) {
    const mode = action.mode as Mode;
    if (!MODES.includes(mode)) return;
    const effect: Effect = { kind: 'control', mode };
    const operator = rc.render(action.operator);
    if (operator !== '') effect.operator = operator;
    rc.effect(effect);
    if (mode !== 'bot') return { kind: 'handover' };
  },
});
