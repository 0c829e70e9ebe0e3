// Reply parts as DOM: one function per kind of part (bot-format.md). Everything a bot or a client
// sent is put in as text nodes or checked URLs, never as HTML: a bot's content is not trusted code.
import { t } from './i18n.js';
import { markdown } from './markdown.js';
import { T, type Part } from './types.js';

export type Who = 'bot' | 'user' | 'operator';

export interface RenderContext {
  /** a button was clicked: send its payload, show its text as what the user said */
  command(payload: string, label: string): void;
  /** the name of the person who has the conversation, when one has it and the server named them */
  operatorName(): string | null;
  /** their picture, when they set one */
  operatorAvatar(): string | null;
}

type Attrs = Record<string, string | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Array<Node | string | null>): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === true) el.setAttribute(name, '');
    else if (typeof value === 'string') el.setAttribute(name, value);
  }
  for (const child of children) if (child !== null) el.append(child);
  return el;
}

const LINK_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:'];
const MEDIA_SCHEMES = ['http:', 'https:', 'data:', 'blob:'];

/** The URL if it is absolute-or-relative http(s) (or mail/phone for links); `javascript:` and friends never pass. */
export function safeUrl(raw: string | null | undefined, media = false): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw, document.baseURI);
    return (media ? MEDIA_SCHEMES : LINK_SCHEMES).includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]'}]/g;

/** Text with its web addresses turned into links. */
export function linkified(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  let last = 0;
  URL_IN_TEXT.lastIndex = 0;
  for (let match = URL_IN_TEXT.exec(text); match; match = URL_IN_TEXT.exec(text)) {
    out.append(text.slice(last, match.index), externalLink(match[0], match[0]));
    last = match.index + match[0].length;
  }
  out.append(text.slice(last));
  return out;
}

function externalLink(href: string, label: string, cls?: string): HTMLAnchorElement {
  return h('a', { href: safeUrl(href), target: '_blank', rel: 'noopener noreferrer', class: cls }, label);
}

/** `rich`: a bot's or an operator's text, whose markdown is shown; what the user typed is shown as typed. */
function bubble(text: string | null, rich: boolean): HTMLElement {
  // dir=auto: each text runs in its own direction (Arabic, Hebrew right to left), whatever the page's.
  return h('div', { class: 'bubble', dir: 'auto' }, rich ? markdown(text ?? '') : linkified(text ?? ''));
}

/** Up to two initials of a name, for a face that has no picture. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return ((words[0]?.[0] ?? '?') + (words.length > 1 ? words[words.length - 1][0] : '')).toUpperCase();
}

/** A picture that may not load: on error it gives way to `fallback` (initials, a placeholder). */
export function withFallback(img: HTMLImageElement, fallback: () => HTMLElement): HTMLImageElement {
  img.addEventListener('error', () => img.replaceWith(fallback()), { once: true });
  return img;
}

/**
 * An operator's face: their picture, or (without one, or when it does not load) their initials on
 * a colour of their own, dark enough for white text whatever the hue. Set through the style object,
 * which a page's Content-Security-Policy allows where a style attribute would not be.
 */
export function operatorFace(name: string, avatar: string | null): HTMLElement {
  const letters = () => {
    const face = h('span', { class: 'face', 'aria-hidden': 'true' }, initials(name));
    face.style.background = `hsl(${[...name].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 360, 7)},50%,30%)`;
    return face;
  };
  const url = safeUrl(avatar, true);
  return url ? withFallback(h('img', { class: 'face', src: url, alt: '' }), letters) : letters();
}

const imagePlaceholder = (label: string) => h('div', { class: 'placeholder', role: 'img', 'aria-label': label }, t.imageMissing);

function button(part: Part, ctx: RenderContext): HTMLElement {
  if (part.Type === T.link) {
    const link = externalLink(part.Url ?? '', part.Text ?? part.Url ?? t.open, 'btn link');
    link.setAttribute('aria-label', `${part.Text ?? t.link} ${t.newTab}`);
    return link;
  }
  const label = part.Text ?? '';
  const el = h('button', { type: 'button', class: 'btn' }, label);
  el.addEventListener('click', () => {
    if (part.Command) ctx.command(part.Command, label);
  });
  return el;
}

export function actions(parts: Part[], ctx: RenderContext): HTMLElement | null {
  const buttons = parts.filter((p) => p.Type === T.button || p.Type === T.link);
  return buttons.length > 0 ? h('div', { class: 'actions' }, ...buttons.map((b) => button(b, ctx))) : null;
}

function card(part: Part, ctx: RenderContext, index: number, count: number): HTMLElement {
  const title = part.Title ?? part.Text ?? '';
  const image = safeUrl(part.ImageUrl, true);
  return h(
    'div',
    { class: 'card', role: 'group', 'aria-roledescription': t.card, 'aria-label': count > 1 ? t.cardOf(title, index + 1, count) : title, tabindex: '-1' },
    image ? withFallback(h('img', { src: image, alt: title, loading: 'lazy' }), () => imagePlaceholder(title)) : null,
    h('div', { class: 'card-body', dir: 'auto' }, h('strong', {}, title), part.Subtitle ? h('p', {}, part.Subtitle) : null),
    actions(part.Parts, ctx),
  );
}

function carousel(part: Part, ctx: RenderContext): HTMLElement {
  const cards = part.Parts.filter((p) => p.Type === T.card);
  const el = h('div', { class: 'carousel', role: 'group', 'aria-roledescription': 'carousel', 'aria-label': t.cards(cards.length) }, ...cards.map((c, i) => card(c, ctx, i, cards.length)));
  // Arrow keys move between cards, as users of a carousel expect; Tab still reaches every button.
  el.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const all = Array.from(el.children) as HTMLElement[];
    const current = all.findIndex((c) => c.contains(event.target as Node));
    const next = all[Math.min(all.length - 1, Math.max(0, current + (event.key === 'ArrowRight' ? 1 : -1)))];
    if (!next) return;
    event.preventDefault();
    const target = next.querySelector<HTMLElement>('button, a') ?? next;
    target.focus();
    next.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  });
  return el;
}

function media(part: Part): HTMLElement {
  const url = safeUrl(part.Url, true);
  const caption = part.Text ? h('figcaption', { dir: 'auto' }, part.Text) : null;
  if (part.Type === T.image) {
    const alt = part.Text ?? t.image;
    return h(
      'figure',
      { class: 'media' },
      withFallback(h('img', { src: url, alt, loading: 'lazy' }), () => imagePlaceholder(alt)),
      caption,
    );
  }
  if (part.Type === T.video) return h('figure', { class: 'media' }, h('video', { src: url, controls: true, preload: 'metadata', 'aria-label': part.Text ?? t.video }), caption);
  if (part.Type === T.audio) return h('figure', { class: 'media' }, h('audio', { src: url, controls: true, preload: 'none', 'aria-label': part.Text ?? t.audio }), caption);
  const name = part.Text ?? decodeURIComponent((url ?? '').split('/').pop() || 'file');
  const link = h('a', { href: safeUrl(part.Url), class: 'file', target: '_blank', rel: 'noopener noreferrer', download: true }, name);
  link.setAttribute('aria-label', t.download(name));
  return h('div', { class: 'bubble' }, link);
}

/** One part as a row of the transcript; null for parts that show nothing (delays). */
export function renderPart(part: Part, who: Who, ctx: RenderContext): HTMLElement | null {
  let content: HTMLElement | null;
  switch (part.Type) {
    case T.delay:
      return null;
    case T.button:
    case T.link:
      content = actions([part], ctx);
      break;
    case T.buttons:
      content = h('div', {}, bubble(part.Text, true), actions(part.Parts, ctx));
      break;
    case T.carousel:
      content = carousel(part, ctx);
      break;
    case T.card:
      content = card(part, ctx, 0, 1);
      break;
    case T.image:
    case T.video:
    case T.audio:
    case T.file:
      content = media(part);
      break;
    default:
      // text, questions, user texts, and any later type that has a text
      if (part.Text === null || part.Text === '') return null;
      content = bubble(part.Text, part.Type !== T.user);
  }
  if (!content) return null;
  const row = h('div', { class: `row ${part.Type === T.user ? 'user' : who}` }, content);
  if (part.Type === T.user) row.prepend(h('span', { class: 'sr' }, t.you));
  else if (who === 'operator') {
    const name = ctx.operatorName();
    row.prepend(h('span', { class: 'who' }, name ? operatorFace(name, ctx.operatorAvatar()) : null, name ?? t.operator));
  }
  return row;
}

/** What the user sent, as a transcript part (their text, or the chosen button's). */
export function userPart(text: string): Part {
  return { Type: T.user, Text: text, Command: null, TypeDelay: 0, BehaviourName: '', InteractionName: '', Parts: [] };
}
