// `dropTag`: removes a tag from the conversation.

import { defineAction } from '../../action-definition.js';
import { actionSchema, NON_EMPTY_TEXT } from '../schema-parts.js';

export const dropTagAction = defineAction({
  type: 'dropTag',
  needsId: false,
  schema: actionSchema('dropTag', { tag: NON_EMPTY_TEXT }),
  *run(action, rc) {
    const tag = rc.render(action.tag);
    const tags = rc.state.tags;
    for (let index = tags.indexOf(tag); index !== -1; index = tags.indexOf(tag)) tags.splice(index, 1);
  },
});
