// The little markdown that bot and operator texts may use: **bold**, *italics* (or _italics_),
// lists ("- ", "* ", "1. ") and [links](https://…). Built as DOM nodes, never as HTML, so a text
// can only ever be text; links go through safeUrl and only http, https and mailto pass.
// Hand-written rather than a library: the libraries worth having (marked, markdown-it) emit HTML
// that would then need a sanitizer, and together weigh more than the whole widget.
// Every scan moves forward with indexOf and gives a marker up for good once it has no closing
// one, so the time stays linear in the text's length whatever the text.
import { h, linkified, safeUrl } from './parts.js';

const LIST_ITEM = /^\s{0,3}(?:([-*•])|(\d{1,3})[.)])\s+/;
const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];

/** A text's markdown as nodes: lines, lists, and the inline marks in each. */
export function markdown(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  let list: HTMLElement | null = null;
  let pendingBreak = false;
  for (const line of text.split('\n')) {
    const item = LIST_ITEM.exec(line);
    if (item) {
      const tag = item[1] ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = h(tag, {});
        out.append(list);
      }
      list.append(h('li', {}, inline(line.slice(item[0].length))));
      pendingBreak = false;
      continue;
    }
    if (pendingBreak) out.append('\n');
    list = null;
    out.append(inline(line));
    pendingBreak = true;
  }
  return out;
}

type Mark = { open: string; close: string; make: (inner: DocumentFragment) => Node };

const MARKS: Mark[] = [
  { open: '**', close: '**', make: (inner) => h('strong', {}, inner) },
  { open: '__', close: '__', make: (inner) => h('strong', {}, inner) },
  { open: '*', close: '*', make: (inner) => h('em', {}, inner) },
  { open: '_', close: '_', make: (inner) => h('em', {}, inner) },
];

/** Inline marks of one line; what is not a complete mark stays as written. */
function inline(text: string, depth = 0): DocumentFragment {
  const out = document.createDocumentFragment();
  const givenUp = new Set<string>();
  let plain = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '[' && !givenUp.has('[')) {
      const link = linkAt(text, i);
      if (link === null) givenUp.add('[');
      else if (link.node) {
        out.append(linkified(text.slice(plain, link.start)), link.node);
        plain = link.end;
      }
      if (link) {
        i = link.end;
        continue;
      }
    }
    const mark = depth < 3 && (c === '*' || c === '_') ? MARKS.find((m) => text.startsWith(m.open, i) && !givenUp.has(m.open)) : undefined;
    if (mark) {
      const from = i + mark.open.length;
      const end = text.indexOf(mark.close, from + 1);
      // "2 * 3", "snake_case": a mark must hug its text, or it is an ordinary character.
      const hugs = end > from && text[from] !== ' ' && text[end - 1] !== ' ' && (c !== '_' || !/\w/.test(text[i - 1] ?? ''));
      if (end === -1) givenUp.add(mark.open);
      else if (hugs) {
        out.append(linkified(text.slice(plain, i)), mark.make(inline(text.slice(from, end), depth + 1)));
        i = plain = end + mark.close.length;
        continue;
      }
      i += mark.open.length;
      continue;
    }
    i++;
  }
  out.append(linkified(text.slice(plain)));
  return out;
}

/**
 * The first `[label](url)` from `at` (its label opens at the last "[" before "]("): the link and
 * where it starts and ends; `node` null when it is not a usable link (skipped as plain text);
 * null when no link can follow at all.
 */
function linkAt(text: string, at: number): { node: Node | null; start: number; end: number } | null {
  const closeLabel = text.indexOf('](', at + 1);
  if (closeLabel === -1) return null;
  const closeUrl = text.indexOf(')', closeLabel + 2);
  if (closeUrl === -1) return null;
  const start = text.lastIndexOf('[', closeLabel);
  const label = text.slice(start + 1, closeLabel);
  const href = safeUrl(text.slice(closeLabel + 2, closeUrl).trim());
  const usable = label.trim() !== '' && href !== undefined && LINK_SCHEMES.includes(new URL(href).protocol);
  return { node: usable ? h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, label) : null, start, end: usable ? closeUrl + 1 : closeLabel + 2 };
}
