// `text`: says a text (Type 0); with `texts`, one of them picked at random.

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { stringField, stringList } from '../fields.js';
import { actionSchema, TEXT } from '../schema-parts.js';
import { PartType } from '../../parts.js';

export const textAction = defineAction({
  type: 'text',
  needsId: false,
  schema: actionSchema('text', { text: Type.Optional(TEXT), texts: Type.Optional(Type.Array(TEXT, { minItems: 1 })) }, { anyOf: [{ required: ['text'] }, { required: ['texts'] }] }),
  *run(action, rc) {
    const choices = stringList(action.texts);
    const chosen = choices.length > 0 ? rc.pick(choices) : stringField(action.text);
    if (chosen === undefined || chosen === null) return;
    rc.say(rc.part(PartType.Text, { Text: rc.render(chosen) }));
  },
});
