// One conversation: opened from the list (or by a share link), drawn from what the server has,
// its controls (take over, hand back, ban, unban, forget) following its state, and the operator's
// reply.
import { $, api, attempt, debounce, mode, say } from './api';
import { drawList, openedConversation as current, refreshList, setOpened } from './listing';
import { focusEntry, markRead, myRole } from './list';
import { displayName, renderTranscript, stateLabel, STATE_CLASSES } from './render';
import { renderContact } from './contact';
import { readTraces, renderTrace, tracesByLine } from './trace';
import { clearApprovals, readApprovals, renderApprovals } from './approvals';
import { renderWorkspace } from './workspace';
import { renderInbox } from './inbox';
import { renderVisitor } from './visitor';
import { touchScreen } from './keys';
import { isShared, type ConversationView, type SharedSummary, type StateView } from './types';

const body = document.body;
let currentView: ConversationView | null = null;

export const conversationPath = () => (mode === 'share' ? '/conversation' : `/conversations/${encodeURIComponent(current()?.BotId ?? '')}/${encodeURIComponent(current()?.UserId ?? '')}`);

/** the conversation whose transcript was drawn last: a new one starts at its newest message */
let drawnKey = '';

export async function openConversation(botId: string, userId: string) {
  setOpened({ BotId: botId, UserId: userId });
  markRead(current()!);
  // aria-current="true" (not an empty attribute, which means false) marks it for eyes and screen readers.
  drawList();
  // On a phone the conversation replaces the list (shown before the transcript is drawn, so
  // that it is scrolled in its final size); its heading takes the focus.
  body.classList.add('has-open');
  await refreshConversation({ focusTitle: matchMedia('(max-width: 760px)').matches });
}

/**
 * Draws the open conversation as the server has it; `toNewest`: scrolled to its newest message
 * whatever was read (the operator's own reply); `focusTitle`: its heading takes the focus as soon
 * as it names the conversation, not once the steps and approvals are read too.
 */
export async function refreshConversation(options: { toNewest?: boolean; focusTitle?: boolean } = {}) {
  if (mode === 'console' && !current()) return;
  const view = await api.call<ConversationView>('GET', conversationPath());
  // Read once the conversation could be: when it could not, no other answer arrives to clear the
  // "cannot be reached" line. The agent's steps and approvals are console data (a share link shows none).
  const traced = mode === 'console' ? readTraces(current()!.BotId, current()!.UserId) : Promise.resolve([]);
  const approvals = mode === 'console' ? readApprovals(current()!.BotId, current()!.UserId) : Promise.resolve([]);
  currentView = view;
  const c = view.Conversation;
  setOpened({ BotId: c.BotId, UserId: c.UserId });
  $('conversation-placeholder').hidden = true;
  $('conversation-body').hidden = false;
  $('conversation-title').textContent = displayName(c);
  if (options.focusTitle) $('conversation-title').focus();
  const badge = $('conversation-state');
  badge.className = `badge ${STATE_CLASSES[c.State] ?? ''}`;
  badge.textContent = stateLabel(c);
  $('conversation-meta').textContent =
    `${displayName(c) !== c.UserId ? `${c.UserId} · ` : ''}${c.BotName} · ${c.Channel}${isShared(view) ? ` · ${view.Mode} link until ${new Date(view.ExpiresAt).toLocaleString()}` : ''}`;
  const transcript = $('transcript');
  const key = `${c.BotId}\n${c.UserId}`;
  // Kept at the newest message when it was there (or newly opened); left alone while the operator reads back.
  const follow = options.toNewest || drawnKey !== key || transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  drawnKey = key;
  const steps = tracesByLine(view.Transcript, await traced);
  transcript.replaceChildren(...renderTranscript(view.Transcript, isShared(view) ? [] : view.Activity, (line) => (steps.has(line) ? renderTrace(steps.get(line)!) : null)));
  $('contact').hidden = isShared(view);
  // governance.md: an admin downloads everything held about the contact (the server refuses other roles)
  const exportHref = mode === 'console' && myRole() === 'admin' ? `/console/api/conversations/${encodeURIComponent(c.BotId)}/${encodeURIComponent(c.UserId)}/export` : undefined;
  if (!isShared(view)) $('contact-body').replaceChildren(renderContact(view.Contact, exportHref));
  updateControls(c, view);
  // a console page always opens a ConsoleView, a share page a SharedView
  if (mode === 'console' && !isShared(view)) {
    const c = view.Conversation;
    renderWorkspace(view);
    renderInbox(c);
    renderApprovals(c.BotId, c.UserId, await approvals, () => Promise.all([refreshConversation(), refreshList()]));
    void attempt(() => renderVisitor(c));
  }
  // Scrolled last, once the panels beside it have taken their width (and so the lines their height).
  if (follow) transcript.scrollTop = transcript.scrollHeight;
}
export const refreshConversationSoon = debounce(() => void attempt(refreshConversation), 60);

/** Buttons follow the state: api.md section 8 says what each state allows. */
function updateControls(c: StateView, view: ConversationView) {
  const takenOver = c.State === 2;
  const banned = c.State === 3;
  $('takeover').disabled = takenOver || banned;
  $('handover').disabled = banned || c.State === 0;
  $('handover-mode').disabled = $('handover').disabled;
  $('ban').disabled = banned;
  $('unban').disabled = !banned;
  const canSend = isShared(view) ? view.CanSend : takenOver;
  $('message-text').disabled = !canSend;
  $('message-send').disabled = !canSend;
  $('message-hint').textContent = canSend
    ? ''
    : isShared(view)
      ? view.Mode === 'view'
        ? 'This link lets you watch the conversation only.'
        : 'The conversation is not taken over now.'
      : 'Take the conversation over to write to the user.';
}

/** What the status line says after each action, with the person's name. */
/** the conversation as last drawn, or (before it is drawn again) just its ids */
type Named = Pick<SharedSummary, 'UserId'> & Partial<Pick<SharedSummary, 'Name' | 'BanExpiration'>>;
const DONE: Record<string, (c: Named) => string> = {
  takeover: (c) => `You took over the conversation with ${displayName(c)}.${touchScreen() ? '' : ' Press r to reply.'}`,
  handover: (c) => `The bot has the conversation with ${displayName(c)} again.`,
  ban: (c) => `${displayName(c)} is banned${c.BanExpiration ? ` until ${c.BanExpiration}` : ''}.`,
  unban: (c) => `${displayName(c)} can write again.`,
};

/** POSTs a control action for the open conversation (console mode). */
function control(action: string, payload: unknown = {}) {
  return attempt(async () => {
    if (!current()) return;
    // The live "forgotten" event may clear `current` while the request is on its way: keep our own copy.
    const target = current() as { BotId: string; UserId: string };
    const result = await api.call<StateView>('POST', `${conversationPath()}/${action}`, payload);
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

export function closeConversation() {
  setOpened(null);
  clearApprovals();
  $('conversation-body').hidden = true;
  $('contact').hidden = true;
  $('conversation-placeholder').hidden = false;
  body.classList.remove('has-open', 'show-contact');
}

export function initConversation() {
  /** Phones: back from a conversation to the list. */
  $('back').addEventListener('click', () => {
    body.classList.remove('has-open', 'show-contact');
    const entry = document.querySelector('.conversation-open[aria-current="true"]') as HTMLElement | null;
    if (entry) focusEntry(entry);
    else $('list-title').focus();
  });

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
    const c = current();
    if (c && confirm(`Forget ${c.UserId}? Every trace of the conversation will be deleted.`)) void control('forget');
  });

  // Enter sends, Shift+Enter starts a new line (after the canned-response picker had its say).
  $('message-text').addEventListener('keydown', (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && !event.defaultPrevented && $('canned-suggestions').hidden) {
      event.preventDefault();
      $('message-form').requestSubmit();
    }
  });

  $('message-form').addEventListener('submit', (event: Event) => {
    event.preventDefault();
    const text = $('message-text').value.trim();
    if (!text) return;
    void attempt(async () => {
      await api.call('POST', mode === 'share' ? '/messages' : `${conversationPath()}/messages`, { Text: text });
      $('message-text').value = '';
      // One's own reply is always shown, even when one had scrolled back to read.
      await refreshConversation({ toNewest: true });
    });
  });
}
