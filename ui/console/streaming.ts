// A bot's answer while it streams (agents.md "Streaming"): a line at the end of the open
// conversation's transcript that grows with each `delta` event, hidden from the transcript's live
// region (the stored message, read when the transcript is drawn again, is announced once). A
// redraw of the transcript removes the line; the next piece puts it back with all the text so far.
// The user's question, stored only with the turn, comes with the first piece and is drawn above.
import { $ } from './api';
import { el, PART, renderLine } from './render';
import type { LiveEvent } from './types';

let shown: { key: string; text: string; question: HTMLElement | null } | null = null;

const keyOf = (e: { BotId: string; UserId: string }) => `${e.BotId}\n${e.UserId}`;

/** A piece for the open conversation: `Offset` 0 starts again, a piece that continues grows it, any other waits for the message. */
export function showStreamed(event: LiveEvent) {
  const key = keyOf(event);
  const text = event.Text ?? '';
  if (event.Failed) return clearStreamed();
  if (event.Offset === 0) shown = { key, text, question: event.Question ? questionLine(event.Question, event.At) : null };
  else if (shown?.key === key && event.Offset === shown.text.length) shown.text += text;
  else return;
  const transcript = $('transcript');
  let line = transcript.querySelector<HTMLElement>('.line-streaming');
  if (!line) {
    line = el('li', 'line line-bot line-streaming');
    line.setAttribute('aria-hidden', 'true');
    const head = el('div', 'line-head');
    head.append(el('span', 'line-who', 'Bot'), el('span', 'line-time', 'writing…'));
    line.append(head, el('p', 'part-text'));
  }
  line.querySelector('.part-text')!.textContent = shown.text;
  if (shown.question) transcript.append(shown.question);
  transcript.append(line);
  transcript.scrollTop = transcript.scrollHeight;
}

/**
 * The answer broke: the growing line goes. The whole message came (`untilRedrawn`): the line stays
 * until the transcript is drawn again with the message, so nothing flickers; late pieces are ignored.
 */
export function clearStreamed(untilRedrawn = false) {
  shown = null;
  if (!untilRedrawn) for (const node of document.querySelectorAll('#transcript .line-streaming, #transcript .line-streaming-question')) node.remove();
}

/** The user's line as the transcript will draw it once stored; hidden from the live region like the answer. */
function questionLine(text: string, at: string): HTMLElement {
  const line = renderLine({ Direction: 'USER', At: at, Parts: [{ Type: PART.USER, Text: text }] });
  line.classList.add('line-streaming-question');
  line.setAttribute('aria-hidden', 'true');
  return line;
}
