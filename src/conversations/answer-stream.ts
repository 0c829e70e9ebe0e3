// A model's answer shown while it arrives (agents.md "Streaming"): the pieces of text a streamed
// call hands over are published on the event bus for that one conversation as `delta` events,
// coalesced (at most one event every DELTA_EVERY_MS) and bounded (nothing past the answer bound
// MAX_AI_ANSWER_BYTES, which is all a turn would say). Nothing is stored: the turn's message,
// stored and published once as always, replaces what was shown. A call that fails says so
// (`failed`), so a half-shown answer does not stay on screen. The first piece carries the user's
// question, which the console shows above it until the turn's messages arrive.
import { MAX_AI_ANSWER_BYTES } from '../engine/actions/ai/index.js';
import type { Clock } from '../shared/clock.js';
import { cutToBytes } from '../shared/utf8.js';
import type { EventBus } from './events.js';

export const DELTA_EVERY_MS = 50;

/** What a streamed model call writes to while it runs. */
export interface AnswerSink {
  push(text: string): void;
  /** the call is over: `ok` false when it failed (the pieces shown so far are void) */
  end(ok: boolean): void;
}

export interface StreamTarget {
  botId: string;
  userId: string;
  channel: string;
  /**
   * the user's text the answer is to, stored only with the turn: the first piece carries it (cut
   * to QUESTION_BYTES, events are relayed between nodes) so the console shows the question above
   * the growing answer
   */
  question?: string;
}

export const QUESTION_BYTES = 1000;

export class AnswerStream implements AnswerSink {
  /** characters published so far: each event says where its text goes (`offset`) */
  private offset = 0;
  private bytes = 0;
  private pending = '';
  private lastSent = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private over = false;

  constructor(
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly target: StreamTarget,
  ) {}

  push(text: string): void {
    if (this.over || text === '') return;
    const size = Buffer.byteLength(text);
    // past the bound nothing more is shown (the stored answer is cut there too)
    if (this.bytes + size > MAX_AI_ANSWER_BYTES) return;
    this.bytes += size;
    this.pending += text;
    if (this.timer !== null) return;
    const wait = this.lastSent + DELTA_EVERY_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  end(ok: boolean): void {
    if (this.over) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    // a success shows its last piece (the whole message follows); a failure takes back what was shown
    if (ok) this.flush();
    else if (this.offset > 0) this.publish('', 0, true);
    this.over = true;
  }

  private flush(): void {
    this.timer = null;
    if (this.over || this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.publish(text, this.offset, false);
    this.offset += text.length;
    this.lastSent = Date.now();
  }

  private publish(text: string, offset: number, failed: boolean): void {
    const { question, ...target } = this.target;
    const asked = offset === 0 && !failed && question ? { question: cutToBytes(question, QUESTION_BYTES) } : {};
    this.events.publish({ kind: 'delta', ...target, text, offset, failed, at: this.clock.now(), ...asked });
  }
}
