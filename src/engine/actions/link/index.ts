// `link`: a link button (Type 17 with `Url`). It is not clickable by payload: the client opens the URL.

import type { Action } from '../../../bots/bot-file.js';
import { defineAction } from '../../action-definition.js';
import type { RunContext } from '../../run-context.js';
import type { ReplyPart } from '../../types.js';
import { actionSchema, NON_EMPTY_TEXT } from '../schema-parts.js';
import { PartType } from '../../parts.js';

export function linkPart(action: Action, rc: RunContext): ReplyPart | null {
  if (typeof action.text !== 'string' || typeof action.url !== 'string') return null;
  return rc.part(PartType.Link, { Text: rc.render(action.text), Url: rc.render(action.url) });
}

export const linkAction = defineAction({
  type: 'link',
  needsId: false,
  schema: actionSchema('link', { text: NON_EMPTY_TEXT, url: NON_EMPTY_TEXT }),
  *run(action, rc) {
    const part = linkPart(action, rc);
    if (part !== null) rc.say(part);
  },
});
