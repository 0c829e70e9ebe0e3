// Who the web visitor is (issue 27): what they gave (name, e-mail) and what their page said
// (address, browser, language), with their earlier conversations; that they are typing; and the
// operator's own picture, which visitors see beside the operator's messages. Console mode only.
import { $ } from './api';
import { el } from './render';
import type { Visitor } from './types';
import type { Host } from './workspace';

/** How long "is typing" stays without a new typing event (the widget sends one every 3 s at most). */
const TYPING_SHOWN_MS = 5000;

let host: Host & { open: (botId: string, userId: string) => void };
let typingTimer = 0;

export function initVisitor(h: typeof host) {
  host = h;
  $('avatar-manage').addEventListener('click', () => void host.attempt(openAvatar));
  $('avatar-close').addEventListener('click', () => $('avatar-dialog').close());
  $('avatar-form').addEventListener('submit', saveAvatar);
}

/** The visitor part of the contact panel: web conversations only (no other channel has a page to tell). */
export async function renderVisitor(c: { BotId: string; UserId: string; Channel: string }) {
  const section = $('visitor');
  const path = host.conversationPath();
  if (c.Channel !== 'web' || !path) {
    section.hidden = true;
    return;
  }
  const v = await host.call<Visitor>('GET', `${path}/visitor`);
  const list = el('dl', 'contact-list');
  const add = (label: string, value: string | null) => {
    if (value) list.append(el('dt', '', label), el('dd', '', value));
  };
  add('Name', v.Name);
  add('E-mail', v.Email);
  add('Page', v.PageUrl);
  add('Browser', v.Browser);
  add('Language', v.Language);
  if (v.SeenAt) add('Seen', new Date(v.SeenAt).toLocaleString());
  const parts = [list.childElementCount ? list : el('p', 'hint', 'The page told nothing about this visitor.')];
  if (v.Earlier.length) {
    const earlier = el('ul', 'visitor-earlier');
    for (const e of v.Earlier) {
      const open = el('button', 'secondary', `Started ${new Date(e.StartedAt).toLocaleString()}`);
      open.type = 'button';
      open.addEventListener('click', () => host.open(c.BotId, e.UserId));
      const item = el('li', '', '');
      item.append(open);
      earlier.append(item);
    }
    parts.push(el('h3', 'visitor-subtitle', 'Earlier conversations'), earlier);
  }
  $('visitor-body').replaceChildren(...parts);
  section.hidden = false;
}

/** A `visitorTyping` event of the open conversation: said for a few seconds, then cleared. */
export function showVisitorTyping() {
  $('visitor-typing').textContent = 'The visitor is typing…';
  clearTimeout(typingTimer);
  typingTimer = window.setTimeout(() => ($('visitor-typing').textContent = ''), TYPING_SHOWN_MS);
}

export function clearVisitorTyping() {
  clearTimeout(typingTimer);
  $('visitor-typing').textContent = '';
}

async function openAvatar() {
  $('account-menu').open = false;
  const { AvatarUrl } = await host.call<{ AvatarUrl: string | null }>('GET', '/me/avatar');
  $('avatar-url').value = AvatarUrl ?? '';
  $('avatar-error').textContent = '';
  $('avatar-dialog').showModal();
}

function saveAvatar(event: SubmitEvent) {
  event.preventDefault();
  const url = $('avatar-url').value.trim();
  void host.call('PUT', '/me/avatar', { AvatarUrl: url || null }).then(
    () => {
      $('avatar-dialog').close();
      host.say(url ? 'Your picture is saved; visitors see it beside your messages.' : 'Visitors see your initials again.');
    },
    (error: Error) => ($('avatar-error').textContent = error.message),
  );
}
