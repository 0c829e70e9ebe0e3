// `carousel`: cards side by side (Type 5) each a Type 14 part with Title/Subtitle/ImageUrl and its
// buttons. A click on a card button also stores the button text in `variable` (see button/index.ts).

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import type { ReplyPart } from '../../types.js';
import { buttonOrLinkParts } from '../button-parts.js';
import { objectList } from '../fields.js';
import { actionSchema, BUTTON_OR_LINK_LIST, NON_EMPTY_TEXT, TEXT } from '../schema-parts.js';
import { PartType } from '../../parts.js';

const cardSchema = Type.Object({ title: TEXT, subtitle: Type.Optional(TEXT), imageUrl: Type.Optional(TEXT), buttons: BUTTON_OR_LINK_LIST }, { additionalProperties: false });

export const carouselAction = defineAction({
  type: 'carousel',
  needsId: false,
  schema: actionSchema('carousel', { cards: Type.Array(cardSchema), variable: Type.Optional(NON_EMPTY_TEXT) }),
  *run(action, rc) {
    const cards: ReplyPart[] = [];
    for (const card of objectList(action.cards)) {
      if (typeof card.title !== 'string') continue;
      cards.push(
        rc.part(PartType.Card, {
          Parts: buttonOrLinkParts(card.buttons, rc),
          Title: rc.render(card.title),
          Subtitle: typeof card.subtitle === 'string' ? rc.render(card.subtitle) : null,
          ImageUrl: typeof card.imageUrl === 'string' ? rc.render(card.imageUrl) : null,
        }),
      );
    }
    if (cards.length > 0) rc.say(rc.part(PartType.Carousel, { Parts: cards }));
  },
});
