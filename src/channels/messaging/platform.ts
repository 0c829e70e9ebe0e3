// The small contract every messaging platform folder implements (channels/telegram, whatsapp,
// messenger): connect, verify and parse an inbound request, render reply parts into the
// platform's calls, and make one call. Everything else — connections, duplicates, turns, the
// durable outbound queue — is shared (connections.ts, inbound.ts, outbound.ts).
import type { ReplyPart } from '../../engine/types.js';
import type { ConnectForm } from './connect-form.js';
import type { Credentials, InboundEvent, MessagingChannel, PlatformCall, SendResult } from './model.js';

/** An inbound webhook request as the platform sent it. */
export interface InboundRequest {
  /** lower-cased header names */
  headers: Record<string, string | string[] | undefined>;
  /** the body exactly as received (signatures are over these bytes) */
  rawBody: Buffer;
  query: Record<string, string>;
  /** a path below the webhook URL (Slack's `/interactive`), or '' for the webhook itself */
  subpath?: string;
  /** when the server received it (ms): Slack signs a timestamp that must be recent */
  receivedAt?: number;
  /** the public URL it was posted to (Twilio signs it): the WebhookUrl, and the subpath */
  url?: string;
}

/** What the webhook answers besides `{ok: true}`: Slack's url_verification challenge, Twilio's `<Response/>`. */
export interface InboundAnswer {
  contentType: string;
  body: string;
}

export interface Connected {
  credentials: Credentials;
  /** public: `@username`, a phone number id, a page id */
  account: string | null;
  /** members of the connect reply besides Channel, Enabled and WebhookUrl */
  reply: { Account?: string | null; VerifyToken?: string; InteractivityUrl?: string };
}

export interface MessagingPlatform {
  readonly channel: MessagingChannel;
  /** what the console's form asks for to connect (connect-form.ts); without it, the API only */
  readonly connectForm?: ConnectForm;
  /** checks the PUT body (400 on a bad one) and, where the platform allows, the credentials themselves */
  connect(body: Record<string, unknown>, webhookUrl: string): Promise<Connected>;
  /** undoes what connect set up at the platform (best effort: the credentials go anyway) */
  disconnect(credentials: Credentials): Promise<void>;
  /** paths below the webhook URL this platform also posts to (Slack: `interactive`) */
  readonly subpaths?: readonly string[];
  /** true only for a request the platform really sent (secret token, HMAC of the raw body) */
  verify(request: InboundRequest, credentials: Credentials): boolean | Promise<boolean>;
  /** the verified body as data (default: JSON); undefined when it is malformed (400 INVALID_JSON) */
  decode?(request: InboundRequest): unknown;
  /** what a verified request is answered with, when not `{ok: true}` */
  answer?(body: unknown): InboundAnswer | null;
  /** Meta's subscription handshake: the challenge to echo, or null when the verify token is wrong */
  challenge?(query: Record<string, string>, credentials: Credentials): string | null;
  /**
   * what a verified body asks for; unknown kinds become nothing, never an error. `account` is the
   * connection's public account: a Meta app's webhook carries every phone number / page of the app,
   * and only the connected one's updates are this bot's.
   */
  parse(body: unknown, account: string | null, credentials: Credentials): InboundEvent[];
  /**
   * SMS has no buttons: the command a text names among the options the conversation was last
   * shown (`recent`: its latest stored parts, oldest first), or null when it names none.
   */
  choose?(text: string, recent: ReplyPart[]): string | null;
  /** Chatwoot: the call that tells the platform's people a conversation asks for one of them */
  requested?(recipient: string): PlatformCall;
  /** calls to make right after an event ran (Telegram answers a callback query) */
  acknowledge?(event: InboundEvent): PlatformCall[];
  /** WhatsApp: an approved message template (a broadcast outside the 24-hour window, broadcasts.md) */
  template?(template: { name: string; language: string; parameters: string[] }, recipient: string): PlatformCall;
  /** the platform calls that show these parts to `recipient` (the platform's user id) */
  render(parts: ReplyPart[], recipient: string): PlatformCall[];
  /**
   * makes one call; `lastInboundId` is the conversation's latest inbound message id, `replyAddress`
   * where its platform asked replies to go (Teams' serviceUrl), each if known
   */
  send(call: PlatformCall, credentials: Credentials, context: { account: string | null; lastInboundId: string | null; replyAddress: string | null }): Promise<SendResult>;
}

/** The longest typing pause a part may ask for (channels.md "Outbound"). */
export const MAX_TYPING_MS = 10_000;

/**
 * A pause on a platform without a typing indicator for bots (Slack, SMS): a call that sends nothing
 * and holds the conversation's next call, so a delay part still spaces the messages.
 */
export const PAUSE_METHOD = 'pause';
export const pauseCall = (ms: number): PlatformCall => ({ method: PAUSE_METHOD, params: {}, holdNextMs: ms });

/**
 * Splits a text over a platform's limit at word boundaries (a word longer than the limit is cut
 * inside). Counts UTF-16 code units as the platforms do, without splitting a surrogate pair.
 */
export function splitText(text: string, limit: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let cut = rest.lastIndexOf(' ', limit);
    const newline = rest.lastIndexOf('\n', limit);
    if (newline > cut) cut = newline;
    if (cut <= 0) {
      cut = limit;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    chunks.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0 || chunks.length === 0) chunks.push(rest);
  return chunks;
}

/** A button title over the platform's limit, cut with `…` (channels.md). */
export function cutTitle(title: string, limit: number): string {
  const chars = [...title];
  return chars.length <= limit ? title : `${chars.slice(0, limit - 1).join('')}…`;
}

/** The user part's text of media and other kinds the flow cannot read (`[image]`, `[location]`). */
export const kindText = (kind: string) => `[${kind}]`;
