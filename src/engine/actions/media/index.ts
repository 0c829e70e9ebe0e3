// `image`, `video`, `audio`, `file`: media parts (Type 3, 9, 10, 11) with the `Url` and the caption
// in `Text`. One folder for four types because they differ only by their part type.

import { Type } from 'typebox';
import { defineAction, type ActionDefinition } from '../../action-definition.js';
import { actionSchema, NON_EMPTY_TEXT, TEXT } from '../schema-parts.js';
import { PartType, type PartTypeCode } from '../../parts.js';

function mediaAction(type: string, partType: PartTypeCode): ActionDefinition {
  return defineAction({
    type,
    needsId: false,
    schema: actionSchema(type, { url: NON_EMPTY_TEXT, caption: Type.Optional(TEXT) }),
    *run(action, rc) {
      if (typeof action.url !== 'string') return;
      const caption = typeof action.caption === 'string' ? rc.render(action.caption) : null;
      rc.say(rc.part(partType, { Text: caption, Url: rc.render(action.url) }));
    },
  });
}

export const imageAction = mediaAction('image', PartType.Image);
export const videoAction = mediaAction('video', PartType.Video);
export const audioAction = mediaAction('audio', PartType.Audio);
export const fileAction = mediaAction('file', PartType.File);
