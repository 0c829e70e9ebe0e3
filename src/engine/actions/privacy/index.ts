// `privacy`: sets a privacy flag of the conversation (GET /custom/value?type=privacy reads it).

import type { ActionDefinition } from '../../action-definition.js';
import { actionSchema, NON_EMPTY_TEXT } from '../schema-parts.js';

export const DEFAULT_PRIVACY_FLAG = 'personal_data_processing';

export const privacyAction: ActionDefinition = {
  type: 'privacy',
  needsId: false,
  schema: actionSchema('privacy', { flag: NON_EMPTY_TEXT, enabled: { type: 'boolean' } }, ['enabled']),
  *run(action, rc) {
    const flag = rc.render(action.flag) || DEFAULT_PRIVACY_FLAG;
    rc.state.privacy[flag] = action.enabled !== false;
  },
};
