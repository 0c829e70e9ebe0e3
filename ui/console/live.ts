// Live updates from an EventSource: on each event the affected views are fetched again, so what is
// shown is always what the server has (no client-side merging to get wrong).
import { signedIn } from '../shared/api-client';
import { $, api, attempt, mode, say } from './api';
import { closeConversation, refreshConversation, refreshConversationSoon } from './conversation';
import { openedConversation, refreshListSoon } from './listing';
import { countUnread } from './list';
import { alertOnEvent } from './workspace';
import { clearStreamed, showStreamed } from './streaming';
import { clearVisitorTyping, showVisitorTyping } from './visitor';
import type { LiveEvent } from './types';

const PAUSED = 'Live updates paused: the server cannot be reached. Reconnecting…';

let events: EventSource | null = null;

export function stopListening() {
  events?.close();
  events = null;
}

export function listen(url: string) {
  events?.close();
  events = new EventSource(url);
  events.addEventListener('message', (message) => {
    const event: LiveEvent = JSON.parse(message.data);
    const current = openedConversation();
    // Typing is for the user's widget; the console has nothing to refresh for it.
    if (event.Kind === 'typing') return;
    if (event.Kind === 'visitorTyping') {
      if (current && event.BotId === current.BotId && event.UserId === current.UserId) showVisitorTyping();
      return;
    }
    const isOpen = current && event.BotId === current.BotId && event.UserId === current.UserId;
    // A streamed answer's piece: drawn where the message will be; nothing to read again for it.
    if (event.Kind === 'delta') return void (isOpen && showStreamed(event));
    if (event.Kind === 'message' && event.Direction !== 'USER' && isOpen) clearStreamed(true);
    if (event.Kind === 'message' && event.Direction === 'USER') clearVisitorTyping();
    if (mode === 'console') alertOnEvent(event);
    if (event.Kind === 'ended') {
      events?.close();
      return void attempt(refreshConversation);
    }
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
    else if (events?.readyState === EventSource.CLOSED && mode === 'console') void attempt(() => signedIn(api));
  });
  // `ready`: from now on every event reaches the page. What happened before it (on the first
  // open, or during a drop) was not streamed, so the views are read again.
  events.addEventListener('ready', () => {
    if ($('status').textContent === PAUSED) say('');
    if (mode === 'console') refreshListSoon();
    if (openedConversation() || mode === 'share') refreshConversationSoon();
  });
}
