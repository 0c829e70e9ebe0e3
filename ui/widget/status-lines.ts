// The lines under the transcript that say what is happening rather than what was said: the bot
// typing, its answer while it streams, an operator typing, the place in the queue. Each is a
// status region of its own, but the streaming answer: it is hidden from screen readers, which
// hear the whole message once, when it replaces the bubble in the transcript (agents.md "Streaming").
import { t } from './i18n.js';
import { h } from './parts.js';

export class StatusLines {
  readonly typing: HTMLElement;
  /** the bot's answer while it arrives, a bubble that grows */
  readonly streaming: HTMLElement;
  private readonly streamed: HTMLElement;
  /** false once the whole message came: a late piece of that same answer must not bring the bubble back */
  private accepting = true;
  readonly operatorTyping: HTMLElement;
  /** the place in the queue while the conversation waits for a person */
  readonly place: HTMLElement;
  private operatorTypingTimer: ReturnType<typeof setTimeout> | undefined;

  /** `shown`: called after a line appears, so the transcript keeps its newest line in view */
  constructor(private readonly shown: () => void) {
    this.typing = h('div', { class: 'typing', role: 'status', hidden: true }, h('div', { class: 'bubble' }, h('span', { class: 'sr' }, t.botTyping), h('i'), h('i'), h('i')));
    this.streamed = h('div', { class: 'bubble' });
    this.streaming = h('div', { class: 'streaming', 'aria-hidden': 'true', hidden: true }, this.streamed);
    this.operatorTyping = h('div', { class: 'op-typing', role: 'status', hidden: true });
    this.place = h('div', { class: 'op-typing', role: 'status', hidden: true });
  }

  /** "<name> is typing…" until the operator's message comes, or a few seconds pass without news. */
  showOperatorTyping(name: string | null): void {
    clearTimeout(this.operatorTypingTimer);
    this.operatorTyping.hidden = name === null;
    if (name === null) return;
    this.operatorTyping.textContent = t.operatorTyping(name);
    this.shown();
    this.operatorTypingTimer = setTimeout(() => this.showOperatorTyping(null), 6000);
  }

  /**
   * "You are number 2 in the queue." while waiting for a person, and the team's usual reply time
   * when the server measured one (never a guess); `null` hides it.
   */
  showPlace(position: number | null, expectedReplySeconds?: number | null): void {
    this.place.hidden = position === null;
    if (position === null) return;
    const place = position <= 1 ? t.nextInQueue : t.inQueue(position);
    const usual = expectedReplySeconds == null ? '' : expectedReplySeconds < 60 ? t.repliesInUnderAMinute : t.repliesInMinutes(Math.round(expectedReplySeconds / 60));
    this.place.textContent = usual ? `${place} ${usual}` : place;
    this.shown();
  }

  /**
   * A piece of the answer: `offset` 0 starts the bubble again, a piece that continues it grows it,
   * any other (one was lost) waits for the whole message. `failed`: the answer broke, the bubble goes.
   */
  showStreamed(text: string, offset: number, failed: boolean): void {
    const shown = this.streamed.textContent ?? '';
    if (failed) return this.clearStreamed();
    if (offset === 0) this.accepting = true;
    if (!this.accepting) return;
    if (offset === 0) this.streamed.textContent = text;
    else if (offset === shown.length) this.streamed.append(text);
    else return;
    this.typing.hidden = true;
    this.streaming.hidden = this.streamed.textContent === '';
    this.shown();
  }

  /** The whole message is in the transcript (or the conversation started again): the bubble goes. */
  clearStreamed(): void {
    this.streamed.textContent = '';
    this.streaming.hidden = true;
    this.accepting = false;
  }

  showTyping(on: boolean): void {
    this.typing.hidden = !on;
    if (on) this.shown();
  }
}
