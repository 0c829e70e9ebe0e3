// `link`: a link button (Type 17 with `Url`). It is not clickable by payload: the client opens the URL.

import type { Action } from '../../bot-file.js';
import { defineAction } from '../../action-definition.js';
import type { RunContext } from '../../run-context.js';
import type { ReplyPart } from '../../types.js';
import { actionSchema, NON_EMPTY_TEXT } from '../schema-parts.js';
import { PartType } from '../../parts.js';

/**
 * Schemes that run code or read local files where a client opens a link: never said, whether
 * written in the file (refused on save) or made by a template from a user's text at run time.
 * Anything else stays as before (a scheme-less "example.org" filled from a variable still goes out).
 */
const UNSAFE_SCHEME = /^\s*(javascript|vbscript|data|file):/i;

export function linkPart(action: Action, rc: RunContext): ReplyPart | null {
  if (typeof action.text !== 'string' || typeof action.url !== 'string') return null;
  const url = rc.render(action.url);
  if (UNSAFE_SCHEME.test(url)) return null;
  return rc.part(PartType.Link, { Text: rc.render(action.text), Url: url });
}

export const linkAction = defineAction({
  type: 'link',
  needsId: false,
  schema: actionSchema('link', { text: NON_EMPTY_TEXT, url: NON_EMPTY_TEXT }),
  check(action) {
    return typeof action.url === 'string' && UNSAFE_SCHEME.test(action.url)
      ? [{ path: ['url'], message: 'a link opens http(s), mailto: or tel: addresses, never javascript:, vbscript:, data: or file:' }]
      : [];
  },
  *run(action, rc) {
    const part = linkPart(action, rc);
    if (part !== null) rc.say(part);
  },
});
