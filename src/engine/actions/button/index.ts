// `button`: a quick-reply button (Type 1, Command = its id). Clicking it (a command payload equal to
// the id) sets `last_command` to its text, and for a carousel button also the carousel's variable,
// then runs `onClick`.

import type { Action } from '../../bot-file.js';
import { defineAction } from '../../action-definition.js';
import type { RunContext } from '../../run-context.js';
import type { ReplyPart } from '../../types.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS } from '../schema-parts.js';
import { PartType } from '../../parts.js';

/** The Type 1 part of a button, or null when it cannot be clicked (no id or no text). */
export function buttonPart(action: Action, rc: RunContext): ReplyPart | null {
  if (typeof action.id !== 'string' || action.id === '' || typeof action.text !== 'string') return null;
  return rc.part(PartType.Button, { Text: rc.render(action.text), Command: action.id });
}

export const buttonAction = defineAction({
  type: 'button',
  needsId: true,
  schema: actionSchema('button', { text: NON_EMPTY_TEXT, onClick: OPERATIONS }),
  *run(action, rc) {
    const part = buttonPart(action, rc);
    if (part !== null) rc.say(part);
  },
  *click(action, rc, container) {
    const text = rc.render(action.text);
    rc.setVariable('last_command', text);
    if (container?.type === 'carousel') {
      const variable = typeof container.variable === 'string' && container.variable !== '' ? container.variable : 'last_command';
      rc.setVariable(variable, text);
    }
    return yield* rc.runActions(action.onClick);
  },
});
