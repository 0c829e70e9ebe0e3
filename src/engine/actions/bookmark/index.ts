// `bookmark`: remembers the current interaction for `goTo` with mode `bookmark`.

import { defineAction } from '../../action-definition.js';
import { positionOf } from '../../compiled.js';
import { actionSchema } from '../schema-parts.js';

export const bookmarkAction = defineAction({
  type: 'bookmark',
  needsId: false,
  schema: actionSchema('bookmark', {}),
  *run(_action, rc) {
    if (rc.here !== null) rc.state.bookmark = positionOf(rc.here);
  },
});
