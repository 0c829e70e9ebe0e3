// `shareUrl`: asks the caller for a shared conversation URL and stores it in `conversation_share_url`.

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { numberField } from '../fields.js';
import { actionSchema } from '../schema-parts.js';

const MODES = ['view', 'takeover', 'auto'] as const;

export const shareUrlAction = defineAction({
  type: 'shareUrl',
  needsId: false,
  schema: actionSchema('shareUrl', { mode: Type.Enum([...MODES]), hours: Type.Number({ exclusiveMinimum: 0 }) }),
  *run(action, rc) {
    const mode = rc.render(action.mode);
    const hours = numberField(action.hours);
    if (!(MODES as readonly string[]).includes(mode) || hours === null || hours <= 0) return;
    const url = yield { kind: 'shareUrl', mode, hours };
    if (typeof url === 'string' && url !== '') rc.setVariable('conversation_share_url', url);
  },
});
