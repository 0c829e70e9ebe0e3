// Telegram (channels.md): connected with a BotFather token; updates arrive on a webhook set with
// a secret token; replies are Bot API calls. The calls go through grammY's `Api` client: it is the
// best-kept Telegram library for Node, speaks to any API root (a local Bot API server, the tests'
// double), and turns Telegram's error answers into typed errors with `retry_after`.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Api, GrammyError, HttpError } from 'grammy';
import type { ReplyPart } from '../../engine/types.js';
import { AppError } from '../../shared/errors.js';
import type { ConnectForm } from '../messaging/connect-form.js';
import type { Credentials, InboundEvent, PlatformCall, SendResult } from '../messaging/model.js';
import { kindText, type Connected, type InboundRequest, type MessagingPlatform } from '../messaging/platform.js';
import { renderTelegram } from './render.js';

const CALL_TIMEOUT_SECONDS = 10;
/** Clients kept per token: one per connected bot is the usual count; beyond this the oldest go. */
const MAX_CLIENTS = 1000;
const TOKEN_SHAPE = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** Kinds of message that carry no text, named as the flow will read them. */
const KINDS: Array<[field: string, kind: string]> = [
  ['photo', 'image'],
  ['video', 'video'],
  ['video_note', 'video'],
  ['animation', 'animation'],
  ['voice', 'voice'],
  ['audio', 'audio'],
  ['document', 'file'],
  ['sticker', 'sticker'],
  ['location', 'location'],
  ['venue', 'location'],
  ['contact', 'contact'],
  ['poll', 'poll'],
  ['dice', 'dice'],
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined);

export class TelegramPlatform implements MessagingPlatform {
  readonly channel = 'telegram' as const;
  readonly connectForm: ConnectForm = {
    title: 'Telegram',
    intro: 'Create a bot by writing /newbot to @BotFather in Telegram; it answers with the bot token.',
    fields: [{ name: 'Token', label: 'Bot token', help: 'The token BotFather gave, such as 123456789:AAH…', secret: true, maxLength: 256 }],
  };

  private readonly clients = new Map<string, Api>();
  /** Connections to the API are kept open between calls: a burst of replies does not pay a TCP (and TLS) handshake each. */
  private readonly agent: http.Agent;

  constructor(private readonly apiRoot: string) {
    this.agent = apiRoot.startsWith('https:') ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  private api(token: string): Api {
    let api = this.clients.get(token);
    if (!api) {
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      api = new Api(token, { apiRoot: this.apiRoot, timeoutSeconds: CALL_TIMEOUT_SECONDS, baseFetchConfig: { agent: this.agent, compress: true } });
      this.clients.set(token, api);
    }
    return api;
  }

  async connect(body: Record<string, unknown>, webhookUrl: string): Promise<Connected> {
    const token = body.Token;
    if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) throw new AppError('INVALID_REQUEST', 'Token must be the bot token BotFather gave (digits, a colon, then letters).');
    const api = this.api(token);
    // The secret Telegram echoes in every webhook request: 43 characters of [A-Za-z0-9_-].
    const secretToken = crypto.randomBytes(32).toString('base64url');
    try {
      const me = await api.getMe();
      await api.setWebhook(webhookUrl, { secret_token: secretToken, allowed_updates: ['message', 'callback_query'] });
      const account = me.username ? `@${me.username}` : null;
      return { credentials: { token, secretToken }, account, reply: { Account: account } };
    } catch (error) {
      throw new AppError('CHANNEL_REJECTED', 'Telegram refused the token or the webhook.', { Description: describe(error) });
    }
  }

  async disconnect(credentials: Credentials): Promise<void> {
    await this.api(credentials.token).deleteWebhook();
    this.clients.delete(credentials.token);
  }

  verify(request: InboundRequest, credentials: Credentials): boolean {
    const sent = request.headers['x-telegram-bot-api-secret-token'];
    if (typeof sent !== 'string') return false;
    const a = Buffer.from(sent);
    const b = Buffer.from(credentials.secretToken);
    return a.length === b.length && crypto.timingSafeEqual(a, b);
  }

  parse(update: unknown): InboundEvent[] {
    if (!isObject(update)) return [];
    const key = str(update.update_id);
    if (key === undefined) return [];
    if (isObject(update.message)) {
      const message = update.message;
      const chatId = isObject(message.chat) ? str(message.chat.id) : undefined;
      if (chatId === undefined || (isObject(message.from) && message.from.is_bot === true)) return [];
      const base = { key, userId: `telegram:${chatId}`, profile: profileOf(message.from), messageId: str(message.message_id) };
      if (typeof message.text === 'string') {
        // `/start` (also `/start <payload>` from a deep link) begins the conversation again.
        if (/^\/start(@\w+)?(\s|$)/.test(message.text)) return [{ ...base, kind: 'reset' }];
        return [{ ...base, kind: 'text', text: message.text }];
      }
      const kind = KINDS.find(([field]) => message[field] !== undefined)?.[1] ?? 'message';
      return [{ ...base, kind: 'text', text: kindText(kind) }];
    }
    if (isObject(update.callback_query)) {
      const query = update.callback_query;
      const chatId = isObject(query.message) && isObject(query.message.chat) ? str(query.message.chat.id) : isObject(query.from) ? str(query.from.id) : undefined;
      const id = str(query.id);
      if (chatId === undefined || id === undefined || typeof query.data !== 'string') return [];
      return [{ key, userId: `telegram:${chatId}`, kind: 'click', payload: query.data, profile: profileOf(query.from), callbackQueryId: id }];
    }
    return [];
  }

  acknowledge(event: InboundEvent): PlatformCall[] {
    return event.callbackQueryId ? [{ method: 'answerCallbackQuery', params: { callback_query_id: event.callbackQueryId } }] : [];
  }

  render(parts: ReplyPart[], recipient: string): PlatformCall[] {
    return renderTelegram(parts, recipient);
  }

  async send(call: PlatformCall, credentials: Credentials): Promise<SendResult> {
    try {
      const raw = this.api(credentials.token).raw as unknown as Record<string, (params: Json) => Promise<unknown>>;
      await raw[call.method](call.params);
      return { ok: true };
    } catch (error) {
      if (error instanceof GrammyError) {
        const retryAfter = error.parameters?.retry_after;
        const retry = error.error_code === 429 || error.error_code >= 500;
        return {
          ok: false,
          retry,
          retryAfterMs: retryAfter ? retryAfter * 1000 : undefined,
          statusCode: error.error_code,
          error: `Telegram ${error.method}: ${error.error_code} ${error.description}`,
        };
      }
      return { ok: false, retry: true, statusCode: null, error: `Telegram ${call.method}: ${describe(error)}` };
    }
  }
}

/** Telegram's profile fields as variables; `username` without its `@` (channels.md). */
function profileOf(from: unknown): Record<string, string> {
  if (!isObject(from)) return {};
  const profile: Record<string, string> = {};
  for (const field of ['first_name', 'last_name', 'username']) {
    const value = from[field];
    if (typeof value === 'string' && value !== '') profile[field] = value.slice(0, 256);
  }
  return profile;
}

function describe(error: unknown): string {
  if (error instanceof GrammyError) return error.description;
  // grammY's own message names the method only; the underlying error's would hold the request
  // URL, and with it the bot token (/bot<token>/…), which must never reach LastError or a reply.
  if (error instanceof HttpError) return `Telegram could not be reached: ${error.message}`;
  return (error as Error)?.message ?? String(error);
}
