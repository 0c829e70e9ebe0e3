// @ts-check
// The operator console in the browser (no framework). Two modes, from <body data-mode>:
// "console": sign in, list the account's conversations, open one, control it, write to the user;
// "share": one conversation opened by a shared URL, read-only or with operator writing as the link allows.
// This entry wires the parts: api.js (server calls, status line), session.js (sign-in), listing.js
// and list.js (the list), conversation.js (the open one), live.js (live updates), and the panels
// beside it (workspace.js, inbox.js, visitor.js, keys.js).
import { $, api, attempt, mode, say } from './api.js';
import { initListing, onEntryChosen, openedConversation, refreshList } from './listing.js';
import { conversationPath, initConversation, openConversation, refreshConversation } from './conversation.js';
import { listen } from './live.js';
import { initSession, showSignIn, showWorkspace } from './session.js';
import { initWorkspace } from './workspace.js';
import { initKeys } from './keys.js';
import { initInbox } from './inbox.js';
import { initVisitor } from './visitor.js';

const body = document.body;
onEntryChosen((c) => void attempt(() => openConversation(c.BotId, c.UserId)));
initListing();
initConversation();
initSession();

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
  const host = { call: (/** @type {string} */ m, /** @type {string} */ p, /** @type {unknown} */ b) => api.call(m, p, b), attempt, say, conversationPath: () => (openedConversation() ? conversationPath() : null), refresh };
  initWorkspace(host);
  initInbox(host);
  initVisitor({ ...host, open: (botId, userId) => void attempt(() => openConversation(botId, userId)) });
  initKeys({ open: (/** @type {any} */ c) => attempt(() => openConversation(c.BotId, c.UserId)), current: openedConversation });
  api.call('GET', '/me').then(showWorkspace, () => showSignIn());
}
