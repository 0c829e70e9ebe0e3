// The child parts of `buttons` and carousel cards: each item is a `button` or a `link`.

import type { RunContext } from '../run-context.js';
import type { ReplyPart } from '../types.js';
import { buttonPart } from './button/index.js';
import { objectList } from './fields.js';
import { linkPart } from './link/index.js';

export function buttonOrLinkParts(items: unknown, rc: RunContext): ReplyPart[] {
  const parts: ReplyPart[] = [];
  for (const item of objectList(items)) {
    const action = item as { type: string; [field: string]: unknown };
    const part = action.type === 'button' ? buttonPart(action, rc) : action.type === 'link' ? linkPart(action, rc) : null;
    if (part !== null) parts.push(part); // a malformed button is left out, the others still show
  }
  return parts;
}
