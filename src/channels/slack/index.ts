// Slack (channels-more.md): a Slack app connected with its bot token and signing secret; events
// (direct messages, mentions) and button clicks arrive signed with the signing secret; replies are
// Web API calls (`chat.postMessage`) made by the dispatcher through Slack's own `@slack/web-api`
// client, pointed at COLLOQUY_SLACK_API_URL, with its own retries and rate-limit waits turned off:
// the durable outbox retries, honouring Slack's Retry-After, without holding a dispatcher slot.
import crypto from 'node:crypto';
import { ErrorCode, LogLevel, WebClient, type Logger } from '@slack/web-api';
import type { ReplyPart } from '../../engine/types.js';
import { AppError } from '../../shared/errors.js';
import type { ConnectForm } from '../messaging/connect-form.js';
import type { Credentials, InboundEvent, PlatformCall, SendResult } from '../messaging/model.js';
import { type Connected, type InboundAnswer, type InboundRequest, type MessagingPlatform, PAUSE_METHOD } from '../messaging/platform.js';
import { parseSlack } from './parse.js';
import { renderSlack } from './render.js';

const CALL_TIMEOUT_MS = 10_000;
/** Slack refuses a request whose signed timestamp is further than this from now (replays). */
const MAX_SKEW_SECONDS = 5 * 60;
const MAX_CLIENTS = 1000;
const MAX_SECRET_LENGTH = 1024;
const SIGNATURE_SHAPE = /^v0=([0-9a-f]{64})$/;
/** Slack's error codes that say "try again later" rather than "this call is wrong". */
const TRANSIENT = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'ratelimited']);

type Json = Record<string, unknown>;

/** The client's own log would hold request details: its failures come back as errors instead. */
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => LogLevel.ERROR, setName() {} };

export class SlackPlatform implements MessagingPlatform {
  readonly channel = 'slack' as const;
  readonly subpaths = ['interactive'] as const;
  readonly connectForm: ConnectForm = {
    title: 'Slack',
    intro: 'Create a Slack app (api.slack.com/apps) with the chat:write, im:history and app_mentions:read scopes, and install it in your workspace.',
    fields: [
      { name: 'BotToken', label: 'Bot User OAuth Token', help: 'OAuth & Permissions → Bot User OAuth Token (xoxb-…).', secret: true, maxLength: 1024 },
      { name: 'SigningSecret', label: 'Signing secret', help: 'Basic Information → App Credentials → Signing Secret.', secret: true, maxLength: 1024 },
    ],
    moreUrls: [{ subpath: 'interactive', label: 'Interactivity URL', help: 'Paste it under Interactivity & Shortcuts → Request URL, so buttons work.' }],
  };
  private readonly clients = new Map<string, WebClient>();

  constructor(private readonly apiUrl: string) {}

  private client(token: string): WebClient {
    let client = this.clients.get(token);
    if (!client) {
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      client = new WebClient(token, {
        slackApiUrl: `${this.apiUrl}/`,
        allowAbsoluteUrls: false,
        timeout: CALL_TIMEOUT_MS,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        logger: silent,
      });
      this.clients.set(token, client);
    }
    return client;
  }

  async connect(body: Record<string, unknown>, webhookUrl: string): Promise<Connected> {
    for (const name of ['BotToken', 'SigningSecret']) {
      const value = body[name];
      if (value === undefined || value === null || value === '') throw new AppError('MISSING_FIELD', `${name} is required.`, { Field: name });
      if (typeof value !== 'string' || value.length > MAX_SECRET_LENGTH || /\s/.test(value))
        throw new AppError('INVALID_REQUEST', `${name} must be the value Slack shows in the app settings, without spaces.`);
    }
    const botToken = body.BotToken as string;
    const signingSecret = body.SigningSecret as string;
    try {
      const me = await this.client(botToken).auth.test();
      const account = typeof me.user === 'string' ? me.user : null;
      const credentials = { botToken, signingSecret, teamId: String(me.team_id ?? ''), botUserId: String(me.user_id ?? '') };
      return { credentials, account, reply: { Account: account, InteractivityUrl: `${webhookUrl}/interactive` } };
    } catch (error) {
      this.clients.delete(botToken);
      throw new AppError('CHANNEL_REJECTED', 'Slack refused the bot token.', { Description: describe(error) });
    }
  }

  async disconnect(credentials: Credentials): Promise<void> {
    // The Event Subscriptions live in the Slack app's settings; the dead webhook path is enough.
    this.clients.delete(credentials.botToken);
  }

  /** `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:{timestamp}:{raw body}">`, timestamp within 5 minutes. */
  verify(request: InboundRequest, credentials: Credentials): boolean {
    const timestamp = request.headers['x-slack-request-timestamp'];
    const signature = request.headers['x-slack-signature'];
    const match = typeof signature === 'string' ? SIGNATURE_SHAPE.exec(signature) : null;
    if (!match || typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
    const now = Math.floor((request.receivedAt ?? Date.now()) / 1000);
    if (Math.abs(now - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
    const expected = crypto.createHmac('sha256', credentials.signingSecret).update(`v0:${timestamp}:`).update(request.rawBody).digest();
    const sent = Buffer.from(match[1], 'hex');
    return sent.length === expected.length && crypto.timingSafeEqual(sent, expected);
  }

  /** Events are JSON; the interactivity URL gets a form with one `payload` field holding JSON. */
  decode(request: InboundRequest): unknown {
    const text = request.rawBody.toString('utf8');
    const type = String(request.headers['content-type'] ?? '');
    try {
      if (!type.startsWith('application/x-www-form-urlencoded')) return JSON.parse(text);
      const payload = new URLSearchParams(text).get('payload');
      return payload === null ? undefined : JSON.parse(payload);
    } catch {
      return undefined;
    }
  }

  /** Slack checks a new Request URL with `url_verification`: its `challenge` goes back. */
  answer(body: unknown): InboundAnswer | null {
    const b = body as Json | null;
    if (b?.type !== 'url_verification' || typeof b.challenge !== 'string') return null;
    return { contentType: 'text/plain; charset=utf-8', body: b.challenge.slice(0, 1024) };
  }

  parse(body: unknown, _account: string | null, credentials: Credentials): InboundEvent[] {
    return parseSlack(body, credentials);
  }

  render(parts: ReplyPart[], recipient: string): PlatformCall[] {
    return renderSlack(parts, recipient);
  }

  async send(call: PlatformCall, credentials: Credentials): Promise<SendResult> {
    if (call.method === PAUSE_METHOD) return { ok: true };
    try {
      await this.client(credentials.botToken).apiCall(call.method, call.params);
      return { ok: true };
    } catch (error) {
      const e = error as { code?: string; retryAfter?: number; statusCode?: number; data?: { error?: string } };
      const what = `Slack ${call.method}: `;
      if (e.code === ErrorCode.RateLimitedError) return { ok: false, retry: true, retryAfterMs: (e.retryAfter ?? 1) * 1000, statusCode: 429, error: `${what}429 rate limited` };
      if (e.code === ErrorCode.HTTPError) return { ok: false, retry: (e.statusCode ?? 500) >= 500, statusCode: e.statusCode ?? null, error: `${what}${e.statusCode}` };
      if (e.code === ErrorCode.PlatformError) return { ok: false, retry: TRANSIENT.has(e.data?.error ?? ''), statusCode: 200, error: `${what}${e.data?.error ?? 'refused'}` };
      return { ok: false, retry: true, statusCode: null, error: `${what}${describe(error)}` };
    }
  }
}

/** Slack's own error code, or why it could not be reached; never the token. */
function describe(error: unknown): string {
  const e = error as { code?: string; data?: { error?: string }; statusCode?: number; message?: string };
  if (e?.code === ErrorCode.PlatformError) return e.data?.error ?? 'refused';
  if (e?.code === ErrorCode.HTTPError) return `HTTP ${e.statusCode}`;
  if (e?.code === ErrorCode.RequestError) return 'Slack could not be reached (no answer or a network error)';
  return e?.message ?? String(error);
}
