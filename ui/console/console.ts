// The operator console in the browser (no framework). Two modes, from <body data-mode>:
// "console": sign in, list the account's conversations, open one, control it, write to the user;
// "share": one conversation opened by a shared URL, read-only or with operator writing as the link allows.
// This entry wires the parts: api.ts (server calls, status line), session.ts (sign-in), listing.ts
// and list.ts (the list), conversation.ts (the open one), live.ts (live updates), and the panels
// beside it (workspace.ts, inbox.ts, visitor.ts, keys.ts).
import { signedIn } from '../shared/api-client';
import { $, api, attempt, mode, say } from './api';
import { initListing, onEntryChosen, openedConversation, refreshList } from './listing';
import { conversationPath, initConversation, openConversation, refreshConversation } from './conversation';
import { listen } from './live';
import { initSession, showSignIn, showWorkspace } from './session';
import { initWorkspace } from './workspace';
import { initKeys } from './keys';
import { initInbox } from './inbox';
import { initVisitor } from './visitor';

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
  const host = { call: api.call, attempt, say, conversationPath: () => (openedConversation() ? conversationPath() : null), refresh };
  initWorkspace(host);
  initInbox(host);
  initVisitor({ ...host, open: (botId, userId) => void attempt(() => openConversation(botId, userId)) });
  initKeys({ open: (c) => attempt(() => openConversation(c.BotId, c.UserId)), current: openedConversation });
  signedIn(api).then(showWorkspace, () => showSignIn());
}
