// The widget's DOM: a launcher button and a chat window, inside a shadow root so that the host
// page's styles and the widget's never meet. No logic about conversations lives here.
import { t } from './i18n.js';
import { h, initials, renderPart, withFallback, type RenderContext, type Who } from './parts.js';
import { Launcher } from './launcher.js';
import { StatusLines } from './status-lines.js';
import { STYLES } from './styles.js';
import { T, type BotInfo, type Part } from './types.js';

export interface ViewEvents {
  open(): void;
  close(): void;
  submit(text: string): void;
  /** the visitor typed in the message field */
  typed(): void;
}

export class View {
  readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly launcher = new Launcher();
  private readonly window: HTMLElement;
  private readonly title: HTMLElement;
  private avatar: HTMLElement;
  /** how the launcher was last pressed ('touch', 'mouse', 'pen'), and whether this opening was by a finger */
  private lastPointer = '';
  private openedByTouch = false;
  private readonly scroller: HTMLElement;
  private readonly log: HTMLElement;
  private readonly status = new StatusLines(() => this.scrollDown());
  private readonly offline: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly greeting: HTMLElement;
  /** a chosen button folded away while it had the focus: the next reply decides where it goes */
  private refocus = false;

  constructor(on: ViewEvents) {
    this.host = h('div', { id: 'colloquy-widget', 'data-state': 'idle' });
    this.root = this.host.attachShadow({ mode: 'open' });
    this.avatar = h('span', { class: 'avatar', hidden: true });
    this.title = h('h2', { id: 'cq-title' }, t.chat);
    const close = h('button', { type: 'button', class: 'close', 'aria-label': t.closeChat }, '×');
    this.log = h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', 'aria-label': t.conversation });
    this.scroller = h('div', { class: 'scroller', tabindex: '0', 'aria-label': t.messages }, this.log, this.status.streaming, this.status.typing, this.status.operatorTyping, this.status.place);
    this.input = h('input', { id: 'cq-input', type: 'text', dir: 'auto', autocomplete: 'off', maxlength: '4000', placeholder: t.typeHere });
    this.offline = h('div', { class: 'offline', role: 'status', hidden: true }, t.offline);
    this.greeting = h('p', { class: 'greeting', hidden: true });
    this.sendButton = h('button', { type: 'submit', class: 'send', 'aria-label': t.send }, '➤');
    const form = h('form', { class: 'composer' }, h('label', { class: 'sr', for: 'cq-input' }, t.message), this.input, this.sendButton);
    this.window = h(
      'section',
      { id: 'cq-window', class: 'window', role: 'dialog', 'aria-labelledby': 'cq-title', hidden: true },
      // a div, not <header>: the host page has its own banner landmark, the widget adds none (issue 37)
      h('div', { class: 'head' }, this.avatar, this.title, close),
      this.offline,
      this.greeting,
      this.scroller,
      form,
    );
    this.root.append(h('style', {}, STYLES), this.window, this.launcher.button);

    // A finger on a phone opens the chat to read first: the input is not focused, so no keyboard
    // covers half the conversation (issue 37). A keyboard or a mouse still lands in the input.
    this.launcher.button.addEventListener('pointerdown', (event) => (this.lastPointer = event.pointerType));
    this.launcher.button.addEventListener('click', (event) => {
      this.openedByTouch = event.detail > 0 && this.lastPointer === 'touch';
      if (this.isOpen) on.close();
      else on.open();
      this.openedByTouch = false;
    });
    close.addEventListener('click', () => on.close());
    this.input.addEventListener('input', () => on.typed());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text === '' || this.input.disabled) return;
      this.input.value = '';
      on.submit(text);
    });
    // Escape closes the window and gives the focus back to the launcher.
    this.window.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        on.close();
      }
    });
  }

  get isOpen(): boolean {
    return !this.window.hidden;
  }

  setState(state: 'idle' | 'starting' | 'ready' | 'live' | 'failed' | 'offline'): void {
    this.host.setAttribute('data-state', state);
    this.offline.hidden = state !== 'offline';
  }

  setBot(bot: BotInfo): void {
    this.title.textContent = bot.Name;
    // The look set in the console: a colour checked dark enough for white text, a side, a greeting.
    if (bot.Color && /^#[0-9a-fA-F]{6}$/.test(bot.Color)) this.host.style.setProperty('--c', bot.Color);
    this.host.setAttribute('data-side', bot.Position === 'left' ? 'left' : 'right');
    this.greeting.textContent = bot.Greeting ?? '';
    this.greeting.hidden = !bot.Greeting;
    // A picture that does not load gives way to the bot's initials.
    const face = () => h('span', { class: 'avatar initials', 'aria-hidden': 'true' }, initials(bot.Name));
    const picture = bot.Avatar ? withFallback(h('img', { class: 'avatar', alt: '', src: bot.Avatar }), face) : face();
    this.avatar.replaceWith(picture);
    this.avatar = picture;
    this.launcher.setLabel(t.openChatWith(bot.Name));
  }

  /** `focus`: false when the page opened it on load, which must not steal the page's focus. */
  open(focus = true): void {
    this.window.hidden = false;
    this.launcher.setOpen(true);
    this.scrollDown();
    if (focus) this.focusInside();
  }

  close(): void {
    const hadFocus = this.root.activeElement !== null;
    this.window.hidden = true;
    this.launcher.setOpen(false);
    if (hadFocus) this.launcher.button.focus();
  }

  clear(): void {
    this.log.textContent = '';
    this.status.clearStreamed();
  }

  /**
   * Adds a part to the transcript; consecutive quick-reply buttons share one row. `fresh`: said
   * just now (not history), so it counts as unread while the window is closed.
   */
  append(part: Part, who: Who, ctx: RenderContext, fresh = true, said?: string): HTMLElement | null {
    const row = renderPart(part, who, ctx);
    if (!row) return null;
    // In a history, the buttons before a user's answer belong to questions that are over.
    if (part.Type === T.user && !fresh) this.disableButtons();
    const last = this.log.lastElementChild;
    const standalone = part.Type === T.button || part.Type === T.link;
    if (standalone && last?.classList.contains('buttons-only')) {
      last.querySelector('.actions')!.append(...Array.from(row.querySelector('.actions')!.childNodes));
    } else {
      if (standalone) row.classList.add('buttons-only');
      // Consecutive rows of one sender form a group: one label, one time (under its newest row).
      if (last?.classList.contains(row.classList[1])) {
        row.classList.add('grouped');
        row.querySelector('.who')?.remove();
        if (fresh || said) last.querySelector('.at')?.remove();
      }
      // What is said now gets the time now; a resumed history its stored time (`said`).
      // Drawn from an attribute by CSS, so a row's text (and what the live region reads) is the message alone.
      const at = said ? new Date(said) : fresh ? new Date() : null;
      if (at) row.append(h('time', { class: 'at', datetime: at.toISOString(), 'data-t': at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) }));
      this.log.append(row);
    }
    if (fresh && !this.isOpen && part.Type !== T.user) this.launcher.countUnread();
    this.scrollDown();
    return row;
  }

  /**
   * Turns off the buttons shown so far: the bot asks something new, and clicking an old button
   * would silently abandon that question.
   */
  disableButtons(): void {
    // A button chosen with the keyboard is about to fold away: the focus waits on the transcript
    // (inside the dialog, so Esc still closes) and goes on once the reply is shown (setInputEnabled).
    const active = this.root.activeElement;
    if (active instanceof HTMLElement && this.log.contains(active)) {
      this.refocus = true;
      this.scroller.focus({ preventScroll: true });
    }
    // (a refused message's Retry is the visitor's own, not the bot's: it stays)
    for (const old of Array.from(this.log.querySelectorAll<HTMLButtonElement>('button:not(.retry)'))) old.disabled = true;
    // Quick replies that were answered fold away; the answer itself is the user's next bubble.
    for (const used of Array.from(this.log.querySelectorAll('.row > .actions, .row > div:not(.card) > .actions'))) used.classList.add('used');
  }

  /** Turns the buttons of the bot's newest row with buttons on again (the bot has the conversation back). */
  reviveNewestButtons(): void {
    const rows = Array.from(this.log.querySelectorAll('.row.bot')).filter((row) => row.querySelector('button'));
    const newest = rows[rows.length - 1];
    if (!newest) return;
    for (const button of Array.from(newest.querySelectorAll('button'))) button.disabled = false;
    for (const used of Array.from(newest.querySelectorAll('.used'))) used.classList.remove('used');
  }

  /** Puts back a row that a history reload cleared (a message still waiting to be sent). */
  appendRow(row: HTMLElement): void {
    this.log.append(row);
    this.scrollDown();
  }

  /** A user message not sent yet (no connection): marked as such until it is. */
  setPending(row: HTMLElement, pending: boolean): void {
    row.classList.toggle('pending', pending);
    row.querySelector('.wait')?.remove();
    if (pending) row.append(h('span', { class: 'wait' }, t.waitingToSend));
  }

  /** A user message the server refused: it stays, marked, with a button to send it again. */
  setFailed(row: HTMLElement, retry: () => void): void {
    this.setPending(row, false);
    const again = h('button', { type: 'button', class: 'btn retry' }, t.retry);
    again.addEventListener('click', () => {
      this.input.focus();
      retry();
    });
    row.append(h('span', { class: 'wait' }, t.notSentRetry, ' ', again));
    this.scrollDown();
  }

  notice(text: string): void {
    this.log.append(h('div', { class: 'row notice' }, text));
    this.scrollDown();
  }

  /** "<name> is typing…" (null: no one). */
  showOperatorTyping(name: string | null): void {
    this.status.showOperatorTyping(name);
  }

  /** The place in the queue while waiting for a person; `null` hides it. */
  showPlace(position: number | null, expectedReplySeconds?: number | null): void {
    this.status.showPlace(position, expectedReplySeconds);
  }

  /** The bot's answer while it streams (a bubble after the transcript); see StatusLines.showStreamed. */
  showStreamed(text: string, offset: number, failed: boolean): void {
    this.status.showStreamed(text, offset, failed);
  }

  clearStreamed(): void {
    this.status.clearStreamed();
  }

  showTyping(on: boolean): void {
    this.status.showTyping(on);
  }

  /** EnableUserChat: the input is off while the bot expects a click (or for good: a ban). */
  setInputEnabled(enabled: boolean, why = t.chooseAbove): void {
    const active = this.root.activeElement;
    const wasTyping = active === this.input || active === this.sendButton;
    this.input.disabled = !enabled;
    this.sendButton.disabled = !enabled;
    this.input.placeholder = enabled ? t.typeHere : why;
    const refocus = this.refocus;
    this.refocus = false;
    if (!this.isOpen) return;
    // Keep keyboard users where they can act: on the newest buttons when typing is off, back in
    // the input when it is on again after a click.
    if (!enabled && (wasTyping || refocus)) (this.newestButton() ?? this.scroller).focus();
    if (enabled && (refocus || (active instanceof HTMLElement && this.log.contains(active)))) this.input.focus();
  }

  private newestButton(): HTMLElement | null {
    const buttons = this.log.querySelectorAll<HTMLElement>('button:not(:disabled):not(.retry)');
    return buttons.length > 0 ? buttons[buttons.length - 1].closest('.row')!.querySelector<HTMLElement>('button:not(:disabled)') : null;
  }

  private focusInside(): void {
    if (this.openedByTouch) this.scroller.focus({ preventScroll: true });
    else if (!this.input.disabled) this.input.focus();
    else (this.newestButton() ?? this.scroller).focus();
  }

  private scrollDown(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }
}
