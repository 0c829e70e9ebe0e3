// `privacy`: sets a privacy flag of the conversation (GET /custom/value?type=privacy reads it).

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { actionSchema, NON_EMPTY_TEXT } from '../schema-parts.js';

export const DEFAULT_PRIVACY_FLAG = 'personal_data_processing';

export const privacyAction = defineAction({
  type: 'privacy',
  needsId: false,
  schema: actionSchema('privacy', { flag: Type.Optional(NON_EMPTY_TEXT), enabled: Type.Boolean() }),
  *run(action, rc) {
    const flag = rc.render(action.flag) || DEFAULT_PRIVACY_FLAG;
    rc.state.privacy[flag] = action.enabled !== false;
  },
});
