// The web channel's HTTP API as the widget uses it: JSON calls and the live event stream.
import { t } from './i18n.js';
import type { BotInfo, ChatReply, LiveMessage } from './types.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> | null,
  ) {
    super(message);
  }

  /** The server could not be reached (status 0), or a proxy says it is down: worth retrying. */
  get offline(): boolean {
    return this.status === 0 || this.status === 502 || this.status === 503 || this.status === 504;
  }
}

export interface LiveHandlers {
  ready(): void;
  message(message: LiveMessage): void;
  state(state: { State: number; OperatorName?: string | null; OperatorAvatar?: string | null }): void;
  forgotten(): void;
  /** an operator is writing (the console sends it every few seconds while they type) */
  typing(typing: { OperatorName: string }): void;
  /** a piece of the bot's answer while it streams (agents.md "Streaming") */
  delta(delta: { Text: string; Offset: number; Failed?: boolean }): void;
  /** something was said that the stream could not carry: fetch the history again */
  resync(): void;
  /** the stream ended for good (the conversation is gone, the key was refused) */
  failed(): void;
  /** the connection dropped; the browser is trying to reconnect (`ready` follows when it has) */
  lost(): void;
}

export class Api {
  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly clientId: string,
    private readonly context: unknown,
  ) {}

  typing(userId: string): Promise<unknown> {
    return this.call('POST', 'typing', { UserId: userId, ClientId: this.clientId });
  }

  queue(userId: string): Promise<{ State: number; Position: number | null; ExpectedReplySeconds?: number | null }> {
    return this.call('GET', `queue?userid=${encodeURIComponent(userId)}`);
  }

  config(): Promise<BotInfo> {
    return this.call('GET', 'config');
  }

  /** `context`: what the page says about the visitor, sent with every start or resume. */
  start(userId: string | null, variables?: Record<string, unknown>, behaviour?: string): Promise<ChatReply> {
    const body: Record<string, unknown> = { ClientId: this.clientId, Context: this.context };
    if (userId) body.UserId = userId;
    if (variables) body.Variables = variables;
    if (behaviour) body.Behaviour = behaviour;
    return this.call('POST', 'conversation', body);
  }

  /** `messageId`: the same for every try of one message, so the server runs it once. */
  send(userId: string, what: { Text: string } | { Command: string }, messageId?: string): Promise<ChatReply> {
    return this.call('POST', 'messages', { UserId: userId, ClientId: this.clientId, MessageId: messageId, ...what });
  }

  /** Opens the live stream; returns the function that closes it. */
  listen(userId: string, on: LiveHandlers): () => void {
    const source = new EventSource(this.url(`events?userid=${encodeURIComponent(userId)}&client=${encodeURIComponent(this.clientId)}`));
    const json = (e: Event) => JSON.parse((e as MessageEvent<string>).data);
    source.addEventListener('ready', () => on.ready());
    source.addEventListener('message', (e) => on.message(json(e)));
    source.addEventListener('state', (e) => on.state(json(e)));
    source.addEventListener('forgotten', () => on.forgotten());
    source.addEventListener('typing', (e) => on.typing(json(e)));
    source.addEventListener('delta', (e) => on.delta(json(e)));
    source.addEventListener('resync', () => on.resync());
    // EventSource reconnects by itself after a dropped connection; an error status closes it.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) on.failed();
      else on.lost();
    });
    return () => source.close();
  }

  private url(path: string): string {
    return `${this.base}/web/${encodeURIComponent(this.key)}/${path}`;
  }

  private async call<R>(method: string, path: string, body?: unknown): Promise<R> {
    // fetch rejects (a TypeError) only when no answer came: the server or the network is down.
    const response = await fetch(this.url(path), {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch(() => {
      throw new ApiError(0, 'NETWORK', 'The server cannot be reached.', null);
    });
    const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok) {
      throw new ApiError(response.status, String(data?.Code ?? 'NETWORK'), String(data?.Message ?? response.statusText), data);
    }
    return data as R;
  }
}

/** What to tell the visitor about a refusal: a ban's own message, else `fallback`. */
export function describe(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.code === 'USER_BANNED') {
    const message = error.body?.BanMessage;
    return typeof message === 'string' && message !== '' ? message : t.cannotWrite;
  }
  return fallback;
}
