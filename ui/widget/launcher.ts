// The round button that opens and closes the chat, with its unread badge. Its name says what a
// click does and how many messages wait, for those who do not see the badge.
import { t } from './i18n.js';
import { h } from './parts.js';

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';

const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" d="M6 6l12 12M18 6L6 18"/></svg>';

export class Launcher {
  readonly button: HTMLButtonElement;
  private readonly badge: HTMLElement;
  private label: string = t.openChat;
  private unread = 0;
  private open = false;

  constructor() {
    this.button = h('button', { type: 'button', class: 'launcher', 'aria-label': t.openChat, 'aria-expanded': 'false', 'aria-controls': 'cq-window', 'aria-haspopup': 'dialog' });
    this.badge = h('span', { class: 'badge', hidden: true, 'aria-hidden': 'true' });
    this.draw();
  }

  /** "Open the chat with <bot>" once the bot's name is known. */
  setLabel(label: string): void {
    this.label = label;
    this.draw();
  }

  /** The window opened (the unread count is read) or closed. */
  setOpen(open: boolean): void {
    this.open = open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) {
      this.unread = 0;
      this.badge.hidden = true;
    }
    this.draw();
  }

  /** One more message said while the window is closed. */
  countUnread(): void {
    this.unread++;
    this.badge.textContent = String(this.unread);
    this.badge.hidden = false;
    this.draw();
  }

  /** The launcher shows what a click does: a chat bubble to open, a cross to close. */
  private draw(): void {
    this.button.innerHTML = this.open ? CLOSE_ICON : CHAT_ICON; // constants, not content
    this.button.append(this.badge);
    // The badge is drawn for the eye; the count is in the name for everyone else.
    this.button.setAttribute('aria-label', this.open ? t.closeChat : this.unread > 0 ? t.unread(this.label, this.unread) : this.label);
    this.button.classList.toggle('is-open', this.open);
  }
}
