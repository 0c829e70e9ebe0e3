// @ts-check
// The operator console in the browser (no framework). Two modes, from <body data-mode>:
// "console": sign in, list the account's conversations, open one, control it, write to the user;
// "share": one conversation opened by a shared URL, read-only or with operator writing as the link allows.
// Live updates come from an EventSource; on each event the affected views are fetched again, so
// what is shown is always what the server has (no client-side merging to get wrong).
import { countUnread, focusEntry, markRead, renderList, setConversations, setHits, setMe } from './list.js';
import { alertOnEvent, initWorkspace, renderWorkspace, startWorkspace } from './workspace.js';
import { displayName, renderContact, renderTranscript, stateLabel, STATE_CLASSES } from './render.js';
import { initKeys } from './keys.js';
import { initInbox, renderInbox } from './inbox.js';
import { clearVisitorTyping, initVisitor, renderVisitor, showVisitorTyping } from './visitor.js';

const body = document.body;
const mode = body.dataset.mode === 'share' ? 'share' : 'console';
const code = body.dataset.code ?? '';
const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

/** @type {{BotId: string, UserId: string} | null} */
let current = null;
/** @type {any} */
let currentView = null;
/** @type {EventSource | null} */
let events = null;

const OFFLINE = 'The server cannot be reached. Check your connection; the console tries again on your next action.';

const PAUSED = 'Live updates paused: the server cannot be reached. Reconnecting…';

const api = {
  base: mode === 'share' ? `/share/${encodeURIComponent(code)}/api` : '/console/api',
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [payload]
   * @returns {Promise<any>}
   */
  async call(method, path, payload) {
    const init = /** @type {RequestInit} */ ({ method, headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (payload !== undefined) {
      init.headers = { ...init.headers, 'content-type': 'application/json' };
      init.body = JSON.stringify(payload);
    }
    // fetch rejects only when no answer came: say so in words, not as the browser's "Failed to fetch".
    const res = await fetch(this.base + path, init).catch(() => {
      throw Object.assign(new Error(OFFLINE), { status: 0, code: 'NETWORK' });
    });
    if ($('status').textContent === OFFLINE) say('');
    const data = res.status === 204 ? null : await res.json().catch(() => null);
    if (!res.ok) throw Object.assign(new Error(data?.Message ?? `HTTP ${res.status}`), { status: res.status, code: data?.Code });
    return data;
  },
};

function say(/** @type {string} */ text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** Runs `work`, reporting failures; a lost session sends the operator back to the sign-in form. */
async function attempt(/** @type {() => Promise<unknown>} */ work) {
  try {
    await work();
  } catch (error) {
    const e = /** @type {any} */ (error);
    if (mode === 'console' && e.status === 401) return showSignIn('Your session has ended; sign in again.');
    say(e.message, true);
  }
}

/** Calls `fn` once, `ms` after the last of a burst of calls. */
function debounce(/** @type {() => void} */ fn, ms = 120) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

// ---- sign-in (console mode) ----

function showSignIn(/** @type {string} */ message = '') {
  events?.close();
  events = null;
  current = null;
  $('workspace').hidden = true;
  $('who').hidden = true;
  $('signin').hidden = false;
  $('signin-error').textContent = message;
  $('signin-email').focus();
}

async function showWorkspace(/** @type {any} */ me) {
  $('signin').hidden = true;
  $('workspace').hidden = false;
  $('who').hidden = false;
  $('who-name').textContent = `${me.Name} <${me.Email}>`;
  // Agents work on conversations only; the server refuses them the designer and knowledge whatever is shown.
  $('designer-link').hidden = me.Role !== 'designer' && me.Role !== 'admin';
  $('knowledge-link').hidden = $('designer-link').hidden;
  $('broadcasts-link').hidden = $('designer-link').hidden;
  // Teams decide who gets which conversations: only an admin changes them (agents transfer to one).
  $('teams-manage').hidden = me.Role !== 'admin';
  say('');
  setMe(me.OperatorId);
  await Promise.all([refreshList(), startWorkspace(me)]);
  listen('/console/api/events');
  // The sign-in form is gone: focus would fall back to the page; put it where work starts.
  const first = /** @type {HTMLElement | null} */ (document.querySelector('.conversation-open'));
  if (first) focusEntry(first);
  else $('list-title').focus();
}

$('signin-form').addEventListener('submit', async (/** @type {Event} */ event) => {
  event.preventDefault();
  $('signin-error').textContent = '';
  const account = $('signin-account').value.trim();
  try {
    const me = await api.call('POST', '/login', { Email: $('signin-email').value, Password: $('signin-password').value, ...(account ? { AccountId: account } : {}) });
    $('signin-password').value = '';
    await showWorkspace(me);
  } catch (error) {
    $('signin-error').textContent = /** @type {Error} */ (error).message;
  }
});

$('logout').addEventListener('click', () =>
  attempt(async () => {
    await api.call('POST', '/logout', {});
    showSignIn('Signed out.');
  }),
);

// ---- conversation list ----

async function refreshList() {
  const { Conversations } = await api.call('GET', '/conversations');
  setConversations(Conversations);
  drawList();
}
const drawList = () => renderList(current, (c) => void attempt(() => openConversation(c.BotId, c.UserId)));
const refreshListSoon = debounce(() => void attempt(refreshList));
for (const id of ['search', 'filter-state', 'filter-bot', 'filter-channel', 'filter-assignee', 'filter-status']) $(id).addEventListener('input', drawList);
// Every message is searched by the server's full-text index; names and ids are matched at once here.
const searchMessages = debounce(() => {
  const query = $('search').value.trim().toLowerCase();
  if (query.length < 2) return setHits('', []), drawList();
  void attempt(async () => {
    const { Results } = await api.call('GET', `/search?q=${encodeURIComponent(query)}`);
    setHits(query, Results);
    drawList();
  });
}, 250);
$('search').addEventListener('input', searchMessages);
// Waiting times and "last activity" keep counting without a refetch.
setInterval(() => mode === 'console' && !$('workspace').hidden && drawList(), 30_000);

// ---- one conversation ----

const conversationPath = () => (mode === 'share' ? '/conversation' : `/conversations/${encodeURIComponent(current?.BotId ?? '')}/${encodeURIComponent(current?.UserId ?? '')}`);

/** the conversation whose transcript was drawn last: a new one starts at its newest message */
let drawnKey = '';

async function openConversation(/** @type {string} */ botId, /** @type {string} */ userId) {
  current = { BotId: botId, UserId: userId };
  markRead(current);
  // aria-current="true" (not an empty attribute, which means false) marks it for eyes and screen readers.
  drawList();
  // On a phone the conversation replaces the list (shown before the transcript is drawn, so
  // that it is scrolled in its final size); its heading takes the focus.
  body.classList.add('has-open');
  await refreshConversation();
  if (matchMedia('(max-width: 760px)').matches) $('conversation-title').focus();
}
export { openConversation };

/** Phones: back from a conversation to the list. */
$('back').addEventListener('click', () => {
  body.classList.remove('has-open', 'show-contact');
  const entry = /** @type {HTMLElement | null} */ (document.querySelector('.conversation-open[aria-current="true"]'));
  if (entry) focusEntry(entry);
  else $('list-title').focus();
});

async function refreshConversation() {
  if (mode === 'console' && !current) return;
  const view = await api.call('GET', conversationPath());
  currentView = view;
  const c = view.Conversation;
  current = { BotId: c.BotId, UserId: c.UserId };
  $('conversation-placeholder').hidden = true;
  $('conversation-body').hidden = false;
  $('conversation-title').textContent = displayName(c);
  const badge = $('conversation-state');
  badge.className = `badge ${STATE_CLASSES[c.State] ?? ''}`;
  badge.textContent = stateLabel(c);
  $('conversation-meta').textContent = `${displayName(c) !== c.UserId ? `${c.UserId} · ` : ''}${c.BotName} · ${c.Channel}${view.Mode ? ` · ${view.Mode} link until ${new Date(view.ExpiresAt).toLocaleString()}` : ''}`;
  const transcript = $('transcript');
  const key = `${c.BotId}\n${c.UserId}`;
  // Kept at the newest message when it was there (or newly opened); left alone while the operator reads back.
  const follow = drawnKey !== key || transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  drawnKey = key;
  transcript.replaceChildren(...renderTranscript(view.Transcript, view.Activity ?? []));
  $('contact').hidden = !view.Contact;
  if (view.Contact) $('contact-body').replaceChildren(renderContact(view.Contact));
  updateControls(c, view);
  if (mode === 'console') {
    renderWorkspace(view);
    renderInbox(c);
    void attempt(() => renderVisitor(c));
  }
  // Scrolled last, once the panels beside it have taken their width (and so the lines their height).
  if (follow) transcript.scrollTop = transcript.scrollHeight;
}
const refreshConversationSoon = debounce(() => void attempt(refreshConversation), 60);

/** Buttons follow the state: api.md section 8 says what each state allows. */
function updateControls(/** @type {any} */ c, /** @type {any} */ view) {
  const takenOver = c.State === 2;
  const banned = c.State === 3;
  $('takeover').disabled = takenOver || banned;
  $('handover').disabled = banned || c.State === 0;
  $('handover-mode').disabled = $('handover').disabled;
  $('ban').disabled = banned;
  $('unban').disabled = !banned;
  const canSend = mode === 'share' ? Boolean(view.CanSend) : takenOver;
  $('message-text').disabled = !canSend;
  $('message-send').disabled = !canSend;
  $('message-hint').textContent = canSend
    ? ''
    : mode === 'share'
      ? view.Mode === 'view'
        ? 'This link lets you watch the conversation only.'
        : 'The conversation is not taken over now.'
      : 'Take the conversation over to write to the user.';
}

/** What the status line says after each action, with the person's name. */
/** @type {Record<string, (c: any) => string>} */
const DONE = {
  takeover: (c) => `You took over the conversation with ${displayName(c)}. Press r to reply.`,
  handover: (c) => `The bot has the conversation with ${displayName(c)} again.`,
  ban: (c) => `${displayName(c)} is banned${c.BanExpiration ? ` until ${c.BanExpiration}` : ''}.`,
  unban: (c) => `${displayName(c)} can write again.`,
};

/** POSTs a control action for the open conversation (console mode). */
function control(/** @type {string} */ action, /** @type {unknown} */ payload = {}) {
  return attempt(async () => {
    if (!current) return;
    // The live "forgotten" event may clear `current` while the request is on its way: keep our own copy.
    const target = current;
    const result = await api.call('POST', `${conversationPath()}/${action}`, payload);
    if (action === 'forget') {
      say(`${target.UserId} is being forgotten.`);
      closeConversation();
    } else {
      await refreshConversation();
      say(DONE[action]?.(currentView?.Conversation ?? target) ?? `${stateLabel(result)}.`);
    }
    await refreshList();
  });
}

$('takeover').addEventListener('click', () => control('takeover'));
$('handover').addEventListener('click', () => control('handover', { Mode: $('handover-mode').value }));
$('unban').addEventListener('click', () => control('unban'));
$('ban').addEventListener('click', () => {
  const days = $('ban-days').value.trim();
  const message = $('ban-message').value.trim();
  if (days !== '' && !/^[1-9]\d*$/.test(days)) return say('Ban days must be a whole number of at least 1.', true);
  return control('ban', { ...(days ? { Days: Number(days) } : {}), ...(message ? { Message: message } : {}) });
});
$('forget').addEventListener('click', () => {
  if (current && confirm(`Forget ${current.UserId}? Every trace of the conversation will be deleted.`)) void control('forget');
});

// Enter sends, Shift+Enter starts a new line (after the canned-response picker had its say).
$('message-text').addEventListener('keydown', (/** @type {KeyboardEvent} */ event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && !event.defaultPrevented && $('canned-suggestions').hidden) {
    event.preventDefault();
    $('message-form').requestSubmit();
  }
});

$('message-form').addEventListener('submit', (/** @type {Event} */ event) => {
  event.preventDefault();
  const text = $('message-text').value.trim();
  if (!text) return;
  void attempt(async () => {
    await api.call('POST', mode === 'share' ? '/messages' : `${conversationPath()}/messages`, { Text: text });
    $('message-text').value = '';
    await refreshConversation();
  });
});

function closeConversation() {
  current = null;
  $('conversation-body').hidden = true;
  $('contact').hidden = true;
  $('conversation-placeholder').hidden = false;
  body.classList.remove('has-open', 'show-contact');
}

// ---- live events ----

function listen(/** @type {string} */ url) {
  events?.close();
  events = new EventSource(url);
  events.addEventListener('message', (message) => {
    const event = JSON.parse(message.data);
    // Typing is for the user's widget; the console has nothing to refresh for it.
    if (event.Kind === 'typing') return;
    if (event.Kind === 'visitorTyping') {
      if (current && event.BotId === current.BotId && event.UserId === current.UserId) showVisitorTyping();
      return;
    }
    if (event.Kind === 'message' && event.Direction === 'USER') clearVisitorTyping();
    if (mode === 'console') alertOnEvent(event);
    if (event.Kind === 'ended') {
      events?.close();
      return void attempt(refreshConversation);
    }
    const isOpen = current && event.BotId === current.BotId && event.UserId === current.UserId;
    if (event.Kind === 'forgotten' && isOpen && mode === 'console') {
      closeConversation();
      say(`${event.UserId} was forgotten.`);
    } else if (isOpen) {
      refreshConversationSoon();
    } else if (event.Kind === 'message' && event.Direction === 'USER' && mode === 'console') {
      countUnread(event);
    }
    if (mode === 'console') refreshListSoon();
  });
  // EventSource reconnects by itself; a stream that stays closed usually means a lost session.
  events.addEventListener('error', () => {
    if (events?.readyState === EventSource.CONNECTING) say(PAUSED, true);
    else if (events?.readyState === EventSource.CLOSED && mode === 'console') void attempt(() => api.call('GET', '/me'));
  });
  // `ready`: from now on every event reaches the page. What happened before it (on the first
  // open, or during a drop) was not streamed, so the views are read again.
  events.addEventListener('ready', () => {
    if ($('status').textContent === PAUSED) say('');
    if (mode === 'console') refreshListSoon();
    if (current || mode === 'share') refreshConversationSoon();
  });
}

// ---- start ----

if (mode === 'share') {
  $('page-subtitle').textContent = 'shared conversation';
  $('workspace').hidden = false;
  $('workspace').classList.add('single');
  $('list-panel').hidden = true;
  $('controls').hidden = true;
  $('back').hidden = true;
  body.classList.add('has-open');
  void attempt(async () => {
    await refreshConversation();
    listen(`${api.base}/events`);
  });
} else {
  const refresh = () => refreshConversation().then(refreshList);
  const host = { call: (/** @type {string} */ m, /** @type {string} */ p, /** @type {unknown} */ b) => api.call(m, p, b), attempt, say, conversationPath: () => (current ? conversationPath() : null), refresh };
  initWorkspace(host);
  initInbox(host);
  initVisitor({ ...host, open: (botId, userId) => void attempt(() => openConversation(botId, userId)) });
  initKeys({ open: (/** @type {any} */ c) => attempt(() => openConversation(c.BotId, c.UserId)), current: () => current });
  api.call('GET', '/me').then(showWorkspace, () => showSignIn());
}
