// Transcript rendering for the operator console: reply parts (api.md section 3) to DOM nodes.
// Everything goes through textContent and checked URLs, never innerHTML: transcripts hold what
// users and integrators typed. Bot and operator texts are shown with the widget's own markdown
// (DOM nodes, never HTML), so the operator sees what the visitor sees.
import { markdown } from '../widget/markdown';
import type { Activity, Line, Part, StateView } from './types';

/** Part types the console knows by name. */
export const PART = { TEXT: 0, BUTTON: 1, IMAGE: 3, CAROUSEL: 5, QUESTION: 6, VIDEO: 9, AUDIO: 10, FILE: 11, BUTTONS: 13, CARD: 14, LINK: 17, USER: 19, DELAY: 25 };

const WHO = { USER: 'User', BOT: 'Bot', OPERATOR: 'Operator' };

export const STATES = ['Bot', 'Waiting for a person', 'Taken over', 'Banned'];
export const STATE_CLASSES = ['state-bot', 'state-requested', 'state-taken', 'state-banned'];

/** A `tag` element of `className` holding `text` (in its own direction). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string | null): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) {
    node.textContent = text;
    // Each text runs in its own direction: Arabic or Hebrew right to left inside an English page.
    node.dir = 'auto';
  }
  return node;
}

/** Only http(s) URLs become links or media sources (no javascript: or data: from a transcript). */
function safeUrl(url: unknown) {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function link(url: unknown, text: string) {
  const href = safeUrl(url);
  if (!href) return el('span', 'part-text', text);
  const a = el('a', 'part-link', text);
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}

/** A button as the user saw it; the console only shows it (clicking is the user's business). */
function chip(part: Part) {
  if (part.Type === PART.LINK) return link(part.Url, part.Text ?? part.Url ?? 'link');
  const chipNode = el('span', 'part-button', part.Text ?? '');
  chipNode.setAttribute('role', 'note');
  chipNode.setAttribute('aria-label', `button: ${part.Text ?? ''}`);
  return chipNode;
}

function chips(parts: Part[] | undefined) {
  const row = el('div', 'part-buttons');
  for (const child of parts ?? []) row.append(chip(child));
  return row;
}

function card(part: Part) {
  const box = el('div', 'part-card');
  const image = safeUrl(part.ImageUrl);
  if (image) {
    const img = el('img');
    img.src = image;
    img.alt = part.Title ?? '';
    img.loading = 'lazy';
    box.append(img);
  }
  box.append(el('strong', 'card-title', part.Title ?? part.Text ?? ''));
  if (part.Subtitle) box.append(el('span', 'card-subtitle', part.Subtitle));
  if (part.Parts?.length) box.append(chips(part.Parts));
  return box;
}

function media(part: Part, kind: string) {
  const src = safeUrl(part.Url);
  const box = el('div', 'part-media');
  if (src && kind === 'img') {
    const img = el('img');
    img.src = src;
    img.alt = part.Text ?? 'image';
    img.loading = 'lazy';
    box.append(img);
  } else if (src && (kind === 'video' || kind === 'audio')) {
    const player = el(kind as 'video' | 'audio');
    player.src = src;
    player.controls = true;
    player.preload = 'none';
    box.append(player);
  } else {
    box.append(link(part.Url, part.Url ?? kind));
  }
  if (part.Text) box.append(el('span', 'part-caption', part.Text));
  return box;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]'}]/g;

/** A text paragraph whose web addresses are links (opened in a new tab, without the console as referrer). */
function textWithLinks(text: string) {
  const p = el('p', 'part-text', '');
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const a = link(match[0], match[0]);
    a.className = 'text-link';
    p.append(text.slice(last, match.index), a);
    last = (match.index ?? 0) + match[0].length;
  }
  p.append(text.slice(last));
  return p;
}

/** A bot's or operator's text: its markdown shown as the widget shows it. */
function richText(text: string) {
  const p = el('p', 'part-text part-rich', '');
  p.append(markdown(text));
  return p;
}

/** One reply part as a node, or null for parts with nothing to show (delays). `rich`: a bot's or operator's part. */
export function renderPart(part: Part, rich = false) {
  switch (part.Type) {
    case PART.TEXT:
    case PART.QUESTION:
      return rich ? richText(part.Text ?? '') : textWithLinks(part.Text ?? '');
    case PART.USER:
      return textWithLinks(part.Text ?? '');
    case PART.BUTTON:
    case PART.LINK:
      return chips([part]);
    case PART.BUTTONS: {
      const box = el('div', 'part-group');
      if (part.Text) box.append(rich ? richText(part.Text) : textWithLinks(part.Text));
      box.append(chips(part.Parts));
      return box;
    }
    case PART.CAROUSEL: {
      const row = el('div', 'part-carousel');
      for (const child of part.Parts ?? []) row.append(card(child));
      return row;
    }
    case PART.CARD:
      return card(part);
    case PART.IMAGE:
      return media(part, 'img');
    case PART.VIDEO:
      return media(part, 'video');
    case PART.AUDIO:
      return media(part, 'audio');
    case PART.FILE:
      return media(part, 'file');
    case PART.DELAY:
      return null;
    default:
      return el('p', 'part-text part-unknown', part.Text ?? `[part of type ${part.Type}]`);
  }
}

/** One stored message: who said it, when, and its parts. */
export function renderLine(line: Line) {
  const direction = line.Parts.every((p) => p.Type === PART.USER) ? 'USER' : line.Direction;
  const item = el('li', `line line-${direction.toLowerCase()}`);
  const head = el('div', 'line-head');
  head.append(el('span', 'line-who', WHO[direction as keyof typeof WHO] ?? direction));
  const time = el('time', 'line-time', new Date(line.At).toLocaleTimeString());
  time.dateTime = line.At;
  head.append(time);
  item.append(head);
  for (const part of line.Parts) {
    const node = renderPart(part, direction !== 'USER');
    if (node) item.append(node);
  }
  return item;
}

const ACTIVITY = {
  takeover: 'took the conversation over',
  handover: 'handed it back to the bot',
  ban: 'banned the user',
  unban: 'lifted the ban',
  resolve: 'resolved the conversation',
  reopen: 'reopened the conversation',
  snooze: 'snoozed the conversation',
  transfer: 'transferred the conversation',
};

/** A line of what an operator did, between the messages: "Ann took the conversation over · 14:02". */
export function renderActivity(a: Activity) {
  const item = el('li', 'line-activity');
  const what = ACTIVITY[a.Kind as keyof typeof ACTIVITY] ?? a.Kind;
  const detail = a.Kind === 'snooze' && a.Detail ? ` until ${new Date(a.Detail).toLocaleString()}` : a.Detail ? ` to ${a.Detail}` : '';
  const time = el('time', 'line-time', new Date(a.At).toLocaleTimeString());
  time.dateTime = a.At;
  item.append(el('span', '', `${a.Actor} ${what}${a.Kind === 'ban' && a.Detail ? ` for ${a.Detail}` : detail}`), ' · ', time);
  return item;
}

/** Messages and activity lines in the order they happened; `below`: what goes under a message (an agent's steps). */
export function renderTranscript(lines: Line[], activity: Activity[] = [], below: (line: Line) => HTMLElement | null = () => null) {
  const withBelow = (l: Line) => {
    const item = renderLine(l);
    const extra = below(l);
    if (extra) item.append(extra);
    return item;
  };
  const all = [...lines.map((l) => ({ at: l.At, node: () => withBelow(l) })), ...activity.map((a) => ({ at: a.At, node: () => renderActivity(a) }))];
  // A stable sort: a message and an activity at the same moment keep messages first.
  return all.sort((x, y) => Date.parse(x.at) - Date.parse(y.at)).map((x) => x.node());
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What to call the person: their name when known; a generated id is shortened to "Visitor 38e1509b". */
export function displayName(c: { Name?: string | null; UserId: string }) {
  if (c.Name) return c.Name;
  return UUID.test(c.UserId) ? `Visitor ${c.UserId.slice(0, 8)}` : c.UserId;
}

/** What the badge needs: a share page's conversation and a control's answer have no OperatorName. */
type StateOf = Pick<StateView, 'State' | 'Operator' | 'BanExpiration'> & { OperatorName?: string | null };

/** The state badge text, with the operator's display name for taken-over conversations and the end of a ban. */
export function stateLabel(c: StateOf) {
  if (c.State === 2 && c.Operator) return `${STATES[2]} by ${c.Operator === '*' ? 'any operator' : (c.OperatorName ?? c.Operator)}`;
  if (c.State === 3) return c.BanExpiration ? `${STATES[3]} until ${c.BanExpiration}` : STATES[3];
  return STATES[c.State] ?? `State ${c.State}`;
}
