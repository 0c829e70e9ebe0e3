// What the widget tells the server about the visitor, and the wait it shows them: the page's
// context with each start or resume (for the operators: page, browser, language, and a visitor id
// that links this browser's conversations), "the visitor is typing" while a person is or will be
// there (at most every 3 s), and the place in the queue while the conversation waits for a person,
// with the team's usual reply time when the server knows one.
import type { Api } from './client.js';
import { storage } from './storage.js';

const TYPING_EVERY_MS = 3000;
const QUEUE_EVERY_MS = 20_000;
const REQUESTED = 1;
const TAKEN_OVER = 2;

export interface VisitorContext {
  Url?: string;
  Browser: string;
  Language?: string;
  Visitor: string;
}

/** The page's context, cut to the server's bounds (docs/channels.md "Visitor context"). */
export function visitorContext(bot: string, newId: () => string): VisitorContext {
  const key = `colloquy:${bot}:visitor`;
  let visitor = storage.get(key);
  if (!visitor || !/^[A-Za-z0-9_-]{8,64}$/.test(visitor)) storage.set(key, (visitor = newId()));
  const url = location.href.split('#')[0];
  const language = navigator.language;
  return {
    Url: /^https?:\/\//.test(url) ? url.slice(0, 2048) : undefined,
    Browser: navigator.userAgent.slice(0, 256),
    Language: /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(language) && language.length <= 35 ? language : undefined,
    Visitor: visitor,
  };
}

export class Presence {
  private typedAt = 0;
  private queueTimer: ReturnType<typeof setTimeout> | undefined;
  private state = 0;

  constructor(
    private readonly api: Api,
    private readonly userId: () => string | null,
    private readonly showPlace: (position: number | null, expectedReplySeconds?: number | null) => void,
  ) {}

  /** The visitor typed: operators hear of it while a person has, or is asked for, the conversation. */
  typed(): void {
    const userId = this.userId();
    const now = Date.now();
    if (!userId || (this.state !== REQUESTED && this.state !== TAKEN_OVER) || now - this.typedAt < TYPING_EVERY_MS) return;
    this.typedAt = now;
    this.api.typing(userId).catch(() => undefined);
  }

  /** The control state changed: a waiting conversation shows (and refreshes) its place in the queue. */
  control(state: number): void {
    this.state = state;
    clearTimeout(this.queueTimer);
    this.queueTimer = undefined;
    if (state !== REQUESTED) return this.showPlace(null);
    void this.refresh();
  }

  private async refresh(): Promise<void> {
    const userId = this.userId();
    if (!userId || this.state !== REQUESTED) return;
    const answer = await this.api.queue(userId).catch(() => null);
    if (this.state !== REQUESTED) return;
    this.showPlace(answer?.State === REQUESTED ? answer.Position : null, answer?.ExpectedReplySeconds);
    this.queueTimer = setTimeout(() => void this.refresh(), QUEUE_EVERY_MS);
  }

  stop(): void {
    clearTimeout(this.queueTimer);
  }
}
