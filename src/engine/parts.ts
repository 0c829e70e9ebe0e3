// The `Type` numbers of reply parts (api.md section 3, bot-format.md "Actions"): the wire speaks
// numbers, the code speaks these names. One table, so a number means the same thing everywhere.

export const PartType = {
  /** a text (`text` action, wrong-answer texts) */
  Text: 0,
  /** a quick-reply button, `Command` = its id */
  Button: 1,
  /** media, `Url` + caption in `Text` */
  Image: 3,
  /** cards side by side; children are Card parts */
  Carousel: 5,
  /** the question of an `input` */
  Question: 6,
  Video: 9,
  Audio: 10,
  File: 11,
  /** a text with Button/Link child parts */
  Buttons: 13,
  /** one carousel card: `Title`, `Subtitle`, `ImageUrl`, Button/Link child parts */
  Card: 14,
  /** a link button, `Url` */
  Link: 17,
  /** what the user said or clicked, as kept in the history */
  UserText: 19,
  /** a pause shown as typing, `TypeDelay` = ms */
  Delay: 25,
} as const;

/** One of the part type numbers the server produces itself (injected parts may carry others). */
export type PartTypeCode = (typeof PartType)[keyof typeof PartType];
