// `buttons`: a text with buttons and links under it (Type 13, the buttons as child parts).

import { defineAction } from '../../action-definition.js';
import { buttonOrLinkParts } from '../button-parts.js';
import { actionSchema, BUTTON_OR_LINK_LIST, TEXT } from '../schema-parts.js';
import { PartType } from '../../parts.js';

export const buttonsAction = defineAction({
  type: 'buttons',
  needsId: false,
  schema: actionSchema('buttons', { text: TEXT, buttons: BUTTON_OR_LINK_LIST }),
  *run(action, rc) {
    if (typeof action.text !== 'string') return;
    rc.say(rc.part(PartType.Buttons, { Text: rc.render(action.text), Parts: buttonOrLinkParts(action.buttons, rc) }));
  },
});
