// The order every platform renders a turn's parts in (channels.md "Outbound"): a delay part or a
// part's TypeDelay is a typing action first, top-level buttons (quick replies) go out together
// with the ones right after them, and the user's own words are never sent back.
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import { MAX_TYPING_MS } from './platform.js';

export interface PartVisitor {
  /** show "typing…", then hold the next call this long (at most MAX_TYPING_MS) */
  typing(ms: number): void;
  /** a run of top-level Button/Link parts */
  buttons(run: ReplyPart[]): void;
  /** any other part */
  part(part: ReplyPart): void;
}

const isButton = (part: ReplyPart) => part.Type === PartType.Button || part.Type === PartType.Link;

export function walkParts(parts: ReplyPart[], visitor: PartVisitor): void {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.Type === PartType.Delay || part.TypeDelay > 0) visitor.typing(Math.min(part.TypeDelay, MAX_TYPING_MS));
    if (part.Type === PartType.Delay || part.Type === PartType.UserText) continue;
    if (isButton(part)) {
      const run = [part];
      while (i + 1 < parts.length && isButton(parts[i + 1]) && parts[i + 1].TypeDelay === 0) run.push(parts[++i]);
      visitor.buttons(run);
    } else {
      visitor.part(part);
    }
  }
}
