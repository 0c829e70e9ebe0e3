// The conversation list's data (console mode): read from the server, filtered and searched as the
// operator types (every message through the server's full-text index; names and ids at once
// here), and drawn again as time passes. list.ts draws the entries.
import { $, api, attempt, debounce, mode } from './api';
import { renderList, setConversations, setHits } from './list';
import type { SearchHit, Summary } from './types';

let current: { BotId: string; UserId: string } | null = null;
/** The open conversation (conversation.ts sets it), marked in the list. */
export const openedConversation = () => current;
export function setOpened(c: { BotId: string; UserId: string } | null) {
  current = c;
}

/** What choosing an entry does: conversation.ts opens it. */
let open = (_c: Summary) => {};
export function onEntryChosen(handler: (c: Summary) => void) {
  open = handler;
}

export async function refreshList() {
  const { Conversations } = await api.call<{ Conversations: Summary[] }>('GET', '/conversations');
  setConversations(Conversations);
  drawList();
}
export const drawList = () => renderList(current, (c) => open(c));
export const refreshListSoon = debounce(() => void attempt(refreshList));

export function initListing() {
  for (const id of ['search', 'filter-state', 'filter-bot', 'filter-channel', 'filter-assignee', 'filter-status']) $(id).addEventListener('input', drawList);
  const searchMessages = debounce(() => {
    const query = $('search').value.trim().toLowerCase();
    if (query.length < 2) return (setHits('', []), drawList());
    void attempt(async () => {
      const { Results } = await api.call<{ Results: SearchHit[] }>('GET', `/search?q=${encodeURIComponent(query)}`);
      setHits(query, Results);
      drawList();
    });
  }, 250);
  $('search').addEventListener('input', searchMessages);
  // Waiting times and "last activity" keep counting without a refetch.
  setInterval(() => mode === 'console' && !$('workspace').hidden && drawList(), 30_000);
}
