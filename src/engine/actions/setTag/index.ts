// `setTag`: adds a tag to the conversation (once).

import { defineAction } from '../../action-definition.js';
import { actionSchema, NON_EMPTY_TEXT } from '../schema-parts.js';

export const setTagAction = defineAction({
  type: 'setTag',
  needsId: false,
  schema: actionSchema('setTag', { tag: NON_EMPTY_TEXT }),
  *run(action, rc) {
    const tag = rc.render(action.tag);
    if (tag !== '' && !rc.state.tags.includes(tag)) rc.state.tags.push(tag);
  },
});
