// Slack's requests as Slack sends them (api.slack.com/apis/events-api, interaction payloads,
// "Verifying requests from Slack"): Events API envelopes as JSON, button clicks as a form with one
// `payload` field, each signed `v0=<hex HMAC-SHA256 of "v0:{timestamp}:{body}">` with the signing
// secret and sent with `X-Slack-Request-Timestamp`.
import crypto from 'node:crypto';

export const SLACK_BOT_TOKEN = 'xoxb-1111111111-2222222222222-ShopBotTokenForTests0123';
export const SIGNING_SECRET = '8f742231b10e8888abcd99aaa1bb85a5';
export const TEAM = 'T0TEAM001';
export const BOT_USER = 'U0BOT0001';

export interface SignedRequest {
  raw: string;
  contentType: string;
  headers: Record<string, string>;
}

export function slackSignature(raw: string, secret: string, timestamp: number): string {
  return `v0=${crypto.createHmac('sha256', secret).update(`v0:${timestamp}:${raw}`).digest('hex')}`;
}

/** The request with Slack's headers; `at` (seconds) and `secret` change what is signed. */
export function signed(raw: string, contentType: string, options: { at?: number; secret?: string; retry?: number } = {}): SignedRequest {
  const at = options.at ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'x-slack-request-timestamp': String(at), 'x-slack-signature': slackSignature(raw, options.secret ?? SIGNING_SECRET, at) };
  if (options.retry !== undefined) Object.assign(headers, { 'x-slack-retry-num': String(options.retry), 'x-slack-retry-reason': 'http_timeout' });
  return { raw, contentType, headers };
}

export class SlackEvents {
  private n = 0;
  private ts = 1_700_000_000;

  nextTs = () => `${++this.ts}.${String(process.pid % 1_000_000).padStart(6, '0')}`;
  nextEventId = () => `Ev0${process.pid}X${++this.n}`;

  /** An Events API envelope around one event. */
  callback(event: Record<string, unknown>, eventId = this.nextEventId(), team = TEAM) {
    return {
      token: 'deprecated-verification-token',
      team_id: team,
      api_app_id: 'A0APP0001',
      event,
      type: 'event_callback',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: team, user_id: BOT_USER, is_bot: true }],
    };
  }

  /** A direct message to the bot (`message.im`). */
  dm(channel: string, text: string, extra: Record<string, unknown> = {}) {
    return { type: 'message', channel, channel_type: 'im', user: 'U0ALICE01', text, ts: this.nextTs(), event_ts: this.nextTs(), ...extra };
  }

  /** The bot mentioned in a channel (`app_mention`), at the top or inside a thread. */
  mention(channel: string, text: string, thread?: string) {
    const ts = this.nextTs();
    return { type: 'app_mention', channel, user: 'U0ALICE01', text, ts, event_ts: ts, ...(thread ? { thread_ts: thread } : {}) };
  }

  /** A `block_actions` payload: the button with this value clicked on a message of the bot. */
  click(channel: string, value: string, thread?: string, team = TEAM) {
    const messageTs = this.nextTs();
    return {
      type: 'block_actions',
      team: { id: team, domain: 'shop' },
      user: { id: 'U0ALICE01', username: 'alice', team_id: team },
      api_app_id: 'A0APP0001',
      container: { type: 'message', message_ts: messageTs, channel_id: channel, is_ephemeral: false, ...(thread ? { thread_ts: thread } : {}) },
      trigger_id: `${++this.n}.1.abc`,
      channel: { id: channel, name: channel.startsWith('D') ? 'directmessage' : 'general' },
      message: { type: 'message', user: BOT_USER, ts: messageTs, text: '…', ...(thread ? { thread_ts: thread } : {}) },
      actions: [{ type: 'button', action_id: 'button_0', block_id: 'b1', text: { type: 'plain_text', text: 'x' }, value, action_ts: this.nextTs() }],
    };
  }

  /** The form Slack posts to the interactivity URL. */
  static form(payload: unknown): string {
    return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  }
}
