// The console's conversation list: search and filters (state, bot, channel), who waits for a
// person and for how long, unread counts, last activity, and the tab-title badge. It renders
// from the last list the server sent, so filtering and the ticking clock never refetch. Entries
// are updated in place (one element per conversation, kept across redraws), so the entry that
// has the focus keeps it when the list changes; the list is one Tab stop, arrow keys move in it.
// Search matches names and ids here, and every message through the server's full-text index.
import { $ } from './api';
import { displayName, el, stateLabel, STATE_CLASSES } from './render';
import type { SearchHit, Summary } from './types';

const BASE_TITLE = document.title;
const WAITING = 1;
const UNREAD_KEY = 'colloquy:console:unread';

let all: Summary[] = [];
/** the signed-in operator, for the "Mine" filter, and their role (what an empty inbox suggests) */
let me = '';
let role = '';
/** the signed-in operator's role: what the panels offer (an admin exports a contact's data) */
export const myRole = () => role;
export function setMe(operatorId: string, operatorRole: string) {
  me = operatorId;
  role = operatorRole;
}
/** unread messages per conversation, kept for this tab's session */
const unread: Record<string, number> = JSON.parse(sessionStorage.getItem(UNREAD_KEY) ?? '{}');
export const keyOf = (c: { BotId: string; UserId: string }) => `${c.BotId}\n${c.UserId}`;
/** the server's message hits for the words in the search box */
let hits: Map<string, { Text: string }> = new Map();
let hitsFor = '';
export function setHits(query: string, results: SearchHit[]) {
  hitsFor = query;
  hits = new Map(results.map((r) => [keyOf(r), r]));
}
/** one list item per conversation, reused by every redraw */
const items: Map<string, HTMLLIElement> = new Map();

/** "just now", "5 min", "2 h", "3 d": how long ago `iso` was. */
export function ago(iso: string, now = Date.now()) {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} d`;
}

/** A user said something in a conversation the operator is not looking at. */
export function countUnread(c: { BotId: string; UserId: string }) {
  unread[keyOf(c)] = (unread[keyOf(c)] ?? 0) + 1;
  sessionStorage.setItem(UNREAD_KEY, JSON.stringify(unread));
}

export function markRead(c: { BotId: string; UserId: string }) {
  delete unread[keyOf(c)];
  sessionStorage.setItem(UNREAD_KEY, JSON.stringify(unread));
}

/** Options of a filter select from the values present in the list; the chosen one stays chosen. */
function fillSelect(select: HTMLSelectElement, options: Array<[string, string]>) {
  const chosen = select.value;
  const first = select.options[0] as HTMLOptionElement;
  select.replaceChildren(first, ...options.map(([value, label]) => Object.assign(document.createElement('option'), { value, textContent: label })));
  select.value = options.some(([value]) => value === chosen) ? chosen : '';
}

/** The list the server sent; filters are filled from it. */
export function setConversations(conversations: Summary[]) {
  all = conversations;
  const bots = new Map(conversations.map((c) => [c.BotId, c.BotName]));
  fillSelect(
    $('filter-bot'),
    [...bots].sort((a, b) => a[1].localeCompare(b[1])),
  );
  fillSelect(
    $('filter-channel'),
    [...new Set(conversations.map((c) => c.Channel))].sort().map((ch) => [ch, ch]),
  );
}

function matches(c: Summary) {
  const state = $('filter-state').value;
  const bot = $('filter-bot').value;
  const channel = $('filter-channel').value;
  const assignee = $('filter-assignee').value;
  const assigned = assignee === '' || (assignee === 'mine' ? c.AssignedTo?.OperatorId === me : c.AssignedTo === null);
  const status = $('filter-status').value;
  const query: string = $('search').value.trim().toLowerCase();
  const words = query.split(/\s+/).filter(Boolean);
  const haystack = `${c.Name ?? ''} ${c.UserId} ${c.Preview} ${c.BotName}`.toLowerCase();
  const found = words.every((w) => haystack.includes(w)) || (hitsFor === query && hits.has(keyOf(c)));
  // A search looks through resolved and snoozed conversations too.
  const inStatus = status === '' || words.length > 0 || c.Status === status;
  return assigned && inStatus && (state === '' || String(c.State) === state) && (bot === '' || c.BotId === bot) && (channel === '' || c.Channel === channel) && found;
}

/** A preview line without markdown's bold and italic marks (the transcript shows them rendered). */
const plain = (text: string) => text.replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, '$2');

/** The entry's content (the button itself stays, and with it the focus). */
function fill(button: HTMLButtonElement, c: Summary, now: number) {
  const waiting = c.State === WAITING;
  // StateSince: when the user asked for a person (the server records the moment the state changed).
  const badge = el('span', `badge ${STATE_CLASSES[c.State] ?? ''}`, waiting ? `Waiting for a person · ${ago(c.StateSince, now)}` : stateLabel(c));
  if (waiting) badge.title = `Waiting since ${new Date(c.StateSince).toLocaleString()}`;
  const title = el('span', 'conversation-user', displayName(c));
  const time = el('time', 'conversation-time', ago(c.LastActivity, now));
  time.dateTime = c.LastActivity;
  time.title = new Date(c.LastActivity).toLocaleString();
  const owner = c.AssignedTo ? ` · ${c.AssignedTo.OperatorId === me ? 'you' : c.AssignedTo.Name}` : c.Team ? ` · ${c.Team.Name}` : '';
  const status = c.Status === 'open' ? '' : ` · ${c.Status}`;
  const shownId = displayName(c) === c.UserId ? '' : `${c.UserId} · `;
  const badges = el('span', 'conversation-badges');
  badges.append(badge);
  if ((c.PendingApprovals ?? 0) > 0) badges.append(el('span', 'badge state-approval', 'Waiting for approval'));
  button.replaceChildren(title, badges, el('span', 'conversation-bot hint', `${shownId}${c.BotName} · ${c.Channel}${owner}${status}`), time);
  const hit = hitsFor !== '' && hitsFor === $('search').value.trim().toLowerCase() ? hits.get(keyOf(c)) : undefined;
  if (hit) {
    const found = el('span', 'conversation-preview conversation-hit');
    found.append(el('span', 'sr', 'Found in a message: '), el('mark', '', hit.Text));
    button.append(found);
  } else if (c.Preview) button.append(el('span', 'conversation-preview', plain(c.Preview)));
  const count = unread[keyOf(c)] ?? 0;
  if (count > 0) {
    const dot = el('span', 'unread', String(count));
    dot.setAttribute('aria-label', `${count} unread`);
    button.append(dot);
  }
}

/** Puts the items in order without ever moving the one that holds the focus (a move would drop it). */
function arrange(list: HTMLElement, wanted: HTMLLIElement[]) {
  for (const child of [...list.children]) if (!wanted.includes(child as HTMLLIElement)) child.remove();
  const anchor = wanted.find((item) => item.contains(document.activeElement));
  if (!anchor) {
    wanted.forEach((item, i) => list.children[i] !== item && list.insertBefore(item, list.children[i] ?? null));
    return;
  }
  if (!anchor.isConnected) list.append(anchor);
  const at = wanted.indexOf(anchor);
  for (const item of wanted.slice(0, at)) anchor.before(item);
  let cursor = anchor;
  for (const item of wanted.slice(at + 1)) {
    cursor.after(item);
    cursor = item;
  }
}

/** Arrow keys, Home and End move between the entries: the list is one Tab stop. */
function rove(event: KeyboardEvent) {
  const buttons = [...$('conversation-list').querySelectorAll('.conversation-open')] as HTMLButtonElement[];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (at < 0 || to === undefined || !buttons[to]) return;
  event.preventDefault();
  focusEntry(buttons[to]);
}

/** Moves the list's one Tab stop to `button` and focuses it. */
export function focusEntry(button: HTMLElement) {
  for (const b of $('conversation-list').querySelectorAll<HTMLButtonElement>('.conversation-open')) b.tabIndex = b === button ? 0 : -1;
  button.focus();
}
document.getElementById('conversation-list')?.addEventListener('keydown', rove);

/** Draws the list. `current`: the open conversation; `open`: what a click does. */
export function renderList(current: { BotId: string; UserId: string } | null, open: (c: Summary) => void) {
  const shown = all.filter(matches);
  const now = Date.now();
  const list = $('conversation-list');
  const wanted = shown.map((c) => {
    const key = keyOf(c);
    let item = items.get(key);
    if (!item) {
      item = el('li', 'conversation-item');
      const made = el('button', 'conversation-open');
      made.type = 'button';
      made.dataset.botId = c.BotId;
      made.dataset.userId = c.UserId;
      made.addEventListener('click', () => open(all.find((x) => keyOf(x) === key) ?? c));
      item.append(made);
      items.set(key, item);
    }
    const button = item.firstElementChild as HTMLButtonElement;
    if (current && keyOf(current) === key) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
    item.classList.toggle('waiting', c.State === WAITING);
    fill(button, c, now);
    return item;
  });
  for (const [key] of items) if (!all.some((c) => keyOf(c) === key)) items.delete(key);
  arrange(list, wanted);
  // One Tab stop: the entry with the focus, else the open one, else the first.
  const buttons = [...list.querySelectorAll<HTMLButtonElement>('.conversation-open')];
  const stop = buttons.find((b) => b === document.activeElement) ?? buttons.find((b) => b.getAttribute('aria-current') === 'true') ?? buttons[0];
  for (const b of buttons) b.tabIndex = b === stop ? 0 : -1;
  $('list-empty').hidden = shown.length > 0;
  if (all.length > 0) $('list-empty').textContent = 'No conversation matches.';
  else $('list-empty').replaceChildren(...emptyInbox());
  const waitingCount = all.filter((c) => c.State === WAITING).length;
  $('list-count').textContent = `${shown.length} of ${all.length}${waitingCount ? ` · ${waitingCount} waiting` : ''}`;
  // The tab says when someone waits, so an operator working in another tab sees it.
  document.title = waitingCount > 0 ? `(${waitingCount}) ${BASE_TITLE}` : BASE_TITLE;
}

/** What an empty inbox says: where conversations come from, and (for those who may) where to put the bot on a site. */
function emptyInbox(): (Node | string)[] {
  const start = 'No conversations yet. They come in when people write to your bot';
  if (role === 'agent') return [`${start}; a designer or an admin puts it on your website.`];
  const install = el('a', 'text-link', 'Install tab');
  install.href = '/console/designer#install';
  return [`${start}: put it on your website with the one-line embed of the designer's `, install, ', or connect a messaging channel there.'];
}

/** The conversations the list shows now, in its order (next / previous conversation). */
export const shownConversations = () => all.filter(matches);
