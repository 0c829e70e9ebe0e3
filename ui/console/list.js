// @ts-check
// The console's conversation list: search and filters (state, bot, channel), who waits for a
// person and for how long, unread counts, last activity, and the tab-title badge. It renders
// from the last list the server sent, so filtering and the ticking clock never refetch.
import { el, stateLabel, STATE_CLASSES } from './render.js';

const BASE_TITLE = document.title;
const WAITING = 1;
const UNREAD_KEY = 'colloquy:console:unread';

/** @typedef {{BotId: string, UserId: string, BotName: string, Channel: string, State: number, Name: string | null, Preview: string, LastActivity: string, Operator: string | null, BanExpiration: string | null, StateSince: string, AssignedTo: {OperatorId: string, Name: string} | null}} Summary */

/** @type {Summary[]} */
let all = [];
/** the signed-in operator, for the "Mine" filter */
let me = '';
export const setMe = (/** @type {string} */ operatorId) => void (me = operatorId);
/** @type {Record<string, number>} unread messages per conversation, kept for this tab's session */
const unread = JSON.parse(sessionStorage.getItem(UNREAD_KEY) ?? '{}');
const keyOf = (/** @type {{BotId: string, UserId: string}} */ c) => `${c.BotId}\n${c.UserId}`;
const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

/** "just now", "5 min", "2 h", "3 d": how long ago `iso` was. */
export function ago(/** @type {string} */ iso, now = Date.now()) {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} d`;
}

/** A user said something in a conversation the operator is not looking at. */
export function countUnread(/** @type {{BotId: string, UserId: string}} */ c) {
  unread[keyOf(c)] = (unread[keyOf(c)] ?? 0) + 1;
  sessionStorage.setItem(UNREAD_KEY, JSON.stringify(unread));
}

export function markRead(/** @type {{BotId: string, UserId: string}} */ c) {
  delete unread[keyOf(c)];
  sessionStorage.setItem(UNREAD_KEY, JSON.stringify(unread));
}

/** Options of a filter select from the values present in the list; the chosen one stays chosen. */
function fillSelect(/** @type {HTMLSelectElement} */ select, /** @type {Array<[string, string]>} */ options) {
  const chosen = select.value;
  const first = /** @type {HTMLOptionElement} */ (select.options[0]);
  select.replaceChildren(first, ...options.map(([value, label]) => Object.assign(document.createElement('option'), { value, textContent: label })));
  select.value = options.some(([value]) => value === chosen) ? chosen : '';
}

/** The list the server sent; filters are filled from it. */
export function setConversations(/** @type {Summary[]} */ conversations) {
  all = conversations;
  const bots = new Map(conversations.map((c) => [c.BotId, c.BotName]));
  fillSelect($('filter-bot'), [...bots].sort((a, b) => a[1].localeCompare(b[1])));
  fillSelect($('filter-channel'), [...new Set(conversations.map((c) => c.Channel))].sort().map((ch) => [ch, ch]));
}

function matches(/** @type {Summary} */ c) {
  const state = $('filter-state').value;
  const bot = $('filter-bot').value;
  const channel = $('filter-channel').value;
  const assignee = $('filter-assignee').value;
  const assigned = assignee === '' || (assignee === 'mine' ? c.AssignedTo?.OperatorId === me : c.AssignedTo === null);
  const words = $('search').value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${c.Name ?? ''} ${c.UserId} ${c.Preview} ${c.BotName}`.toLowerCase();
  return assigned && (state === '' || String(c.State) === state) && (bot === '' || c.BotId === bot) && (channel === '' || c.Channel === channel) && words.every((w) => haystack.includes(w));
}

/**
 * Draws the list. `current`: the open conversation; `open`: what a click does.
 * @param {{BotId: string, UserId: string} | null} current
 * @param {(c: Summary) => void} open
 */
export function renderList(current, open) {
  const shown = all.filter(matches);
  const now = Date.now();
  $('conversation-list').replaceChildren(
    ...shown.map((c) => {
      const button = /** @type {HTMLButtonElement} */ (el('button', 'conversation-open'));
      button.type = 'button';
      button.dataset.botId = c.BotId;
      button.dataset.userId = c.UserId;
      if (current && keyOf(current) === keyOf(c)) button.setAttribute('aria-current', 'true');
      const waiting = c.State === WAITING;
      // StateSince: when the user asked for a person (the server records the moment the state changed).
      const badge = el('span', `badge ${STATE_CLASSES[c.State] ?? ''}`, waiting ? `Waiting for a person · ${ago(c.StateSince, now)}` : stateLabel(c));
      if (waiting) badge.title = `Waiting since ${new Date(c.StateSince).toLocaleString()}`;
      const title = el('span', 'conversation-user', c.Name ?? c.UserId);
      const time = /** @type {HTMLTimeElement} */ (el('time', 'conversation-time', ago(c.LastActivity, now)));
      time.dateTime = c.LastActivity;
      time.title = new Date(c.LastActivity).toLocaleString();
      const owner = c.AssignedTo ? ` · ${c.AssignedTo.OperatorId === me ? 'you' : c.AssignedTo.Name}` : '';
      button.append(title, badge, el('span', 'conversation-bot hint', `${c.Name ? `${c.UserId} · ` : ''}${c.BotName} · ${c.Channel}${owner}`), time);
      if (c.Preview) button.append(el('span', 'conversation-preview', c.Preview));
      const count = unread[keyOf(c)] ?? 0;
      if (count > 0) {
        const dot = el('span', 'unread', String(count));
        dot.setAttribute('aria-label', `${count} unread`);
        button.append(dot);
      }
      button.addEventListener('click', () => open(c));
      const item = el('li', `conversation-item${waiting ? ' waiting' : ''}`);
      item.append(button);
      return item;
    }),
  );
  $('list-empty').hidden = shown.length > 0;
  $('list-empty').textContent = all.length === 0 ? 'No conversations yet.' : 'No conversation matches.';
  const waitingCount = all.filter((c) => c.State === WAITING).length;
  $('list-count').textContent = `${shown.length} of ${all.length}${waitingCount ? ` · ${waitingCount} waiting` : ''}`;
  // The tab says when someone waits, so an operator working in another tab sees it.
  document.title = waitingCount > 0 ? `(${waitingCount}) ${BASE_TITLE}` : BASE_TITLE;
}
