// Sending the visitor's messages: each is kept in the outbox (memory and the page's storage)
// until the server has answered it, retried with growing pauses while the server is away, and
// marked with a Retry button when the server refuses it. The widget owns the transcript and the
// order of things; this owns the waiting.
import { ApiError, describe, type Api } from './client.js';
import { t } from './i18n.js';
import { Outbox, type Unsent } from './outbox.js';
import { userPart, type RenderContext } from './parts.js';
import type { ChatReply } from './types.js';
import type { View } from './view.js';

/** How long a message that could not be sent waits before it is tried again (doubling, up to MAX_RETRY_MS). */
const RETRY_MS = 3000;
const MAX_RETRY_MS = 30_000;

export interface DeliveryHost {
  api: Api;
  view: View;
  ctx: RenderContext;
  userId(): string | null;
  /** the widget's one queue of what appears */
  enqueue(work: () => Promise<void>): Promise<void>;
  /** resyncs and flushes, one at a time */
  exclusive(work: () => Promise<void>): Promise<void>;
  /** shows the server's answer to a message */
  answered(reply: ChatReply): Promise<void>;
  /** the conversation went away: start a new one with these messages */
  restart(waiting: Unsent[]): Promise<void>;
}

export class Delivery {
  readonly outbox: Outbox;
  private away = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = RETRY_MS;

  constructor(
    storageKey: string,
    private readonly host: DeliveryHost,
  ) {
    this.outbox = new Outbox(storageKey);
  }

  /** Puts back the messages an earlier page of this visitor could not send; the stream's `ready` sends them. */
  restore(userId: string): void {
    for (const unsent of this.outbox.all) {
      if (unsent.userId !== userId || unsent.row) continue;
      this.host.enqueue(async () => {
        unsent.row = this.host.view.append(userPart(unsent.label), 'user', this.host.ctx);
        this.mark(unsent);
      });
    }
  }

  /** Shows a waiting message as waiting, or as refused with a Retry button. */
  private mark(unsent: Unsent, pending = true): void {
    this.host.enqueue(async () => {
      if (!unsent.row) return;
      if (unsent.failed) this.host.view.setFailed(unsent.row, () => this.retry(unsent));
      else this.host.view.setPending(unsent.row, pending);
    });
  }

  /** The visitor's Retry on a refused message: it goes back in line. */
  private retry(unsent: Unsent): void {
    this.outbox.setFailed(unsent, false);
    this.mark(unsent);
    void this.host.exclusive(() => this.flush());
  }

  offline(): void {
    this.away = true;
    this.host.view.setState('offline');
    this.later(() => this.host.exclusive(() => this.flush()));
  }

  /** Tries `work` again after a pause that doubles, up to half a minute, while the server stays away. */
  later(work: () => Promise<void>): void {
    if (this.retryTimer !== undefined) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void work();
    }, this.retryMs);
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }

  /** The server answered: the next outage starts with short pauses again. */
  online(): void {
    this.retryMs = RETRY_MS;
    if (!this.away) return;
    this.away = false;
    this.host.view.setState('ready');
  }

  /**
   * Sends the waiting messages, oldest first, until none is left or the server is still away. A
   * server error (5xx) is an outage too (a database restarting): the message waits. A refusal
   * (4xx) is final for that message: it shows a Retry button and the others go on.
   */
  async flush(): Promise<void> {
    for (let unsent = this.outbox.next(), userId = this.host.userId(); unsent && userId; unsent = this.outbox.next(), userId = this.host.userId()) {
      // (a message restored from an earlier page belongs to this conversation now)
      if (unsent.userId !== userId) unsent.userId = userId;
      let reply: ChatReply;
      try {
        this.mark(unsent, this.away);
        reply = await this.host.api.send(userId, unsent.what, unsent.id);
      } catch (error) {
        if (!(error instanceof ApiError) || error.offline || error.status >= 500) return this.offline();
        if (error.code === 'CONVERSATION_NOT_FOUND') return this.host.restart(this.outbox.takeAll());
        if (error.code === 'USER_BANNED') {
          this.outbox.remove(unsent);
          this.mark(unsent, false);
          this.host.enqueue(async () => this.host.view.notice(describe(error, t.notSent)));
        } else {
          this.outbox.setFailed(unsent, true);
          this.mark(unsent);
        }
        continue;
      }
      this.outbox.remove(unsent);
      this.online();
      this.mark(unsent, false);
      // Sent before, its answer lost: the server ran it once and answers the history instead.
      await this.host.answered(reply);
    }
  }
}
