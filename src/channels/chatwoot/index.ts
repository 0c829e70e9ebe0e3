// Chatwoot as the inbox (channels-more.md): Colloquy is an agent bot of a Chatwoot account, in front
// of its human agents. Chatwoot posts agent-bot events to the unguessable WebhookUrl (it signs
// nothing: the ChannelId, the account and the inboxes are the check); replies and the hand-off go
// to the Chatwoot API at the BaseUrl given at connect, with the bot's `api_access_token`. BaseUrl
// is chosen by the account, not by whoever runs the server, so every call passes the
// private-network guard (in the connection's own DNS lookup) unless the server allows private
// networks.
import type { ReplyPart } from '../../engine/types.js';
import { checkPublicUrl } from '../../integrations/http-call.js';
import { AppError } from '../../shared/errors.js';
import type { ConnectForm } from '../messaging/connect-form.js';
import { withoutTrailingSlashes } from '../../shared/trailing-slashes.js';
import type { Credentials, InboundEvent, PlatformCall, SendResult } from '../messaging/model.js';
import { type Connected, type MessagingPlatform, PAUSE_METHOD } from '../messaging/platform.js';
import { chatwootCall } from './api.js';
import { parseChatwoot } from './parse.js';
import { messagesPath, renderChatwoot } from './render.js';

const MAX_INBOXES = 100;

export class ChatwootPlatform implements MessagingPlatform {
  readonly channel = 'chatwoot' as const;
  readonly connectForm: ConnectForm = {
    title: 'Chatwoot',
    intro: 'Create an agent bot in Chatwoot (Settings → Bots); once connected here, give it the webhook URL shown and connect it to your inboxes.',
    fields: [
      { name: 'BaseUrl', label: 'Chatwoot address', help: 'Where your Chatwoot runs, such as https://app.chatwoot.com.', kind: 'url', maxLength: 512 },
      { name: 'AccountId', label: 'Account number', help: 'The number after /app/accounts/ in Chatwoot addresses.', maxLength: 20 },
      { name: 'BotToken', label: 'Agent bot access token', help: "Settings → Bots → the bot's access token.", secret: true, maxLength: 1024 },
      {
        name: 'InboxIds',
        label: 'Only these inboxes',
        help: 'Inbox numbers separated by commas; leave empty for every inbox the bot is connected to.',
        kind: 'numbers',
        optional: true,
        maxLength: 1000,
      },
    ],
  };

  constructor(private readonly allowPrivateNetwork: boolean) {}

  async connect(body: Record<string, unknown>): Promise<Connected> {
    for (const name of ['BaseUrl', 'AccountId', 'BotToken']) {
      if (body[name] === undefined || body[name] === null || body[name] === '') throw new AppError('MISSING_FIELD', `${name} is required.`, { Field: name });
    }
    const baseUrl = baseUrlOf(body.BaseUrl);
    const accountId = String(body.AccountId);
    if (!/^\d{1,20}$/.test(accountId)) throw new AppError('INVALID_REQUEST', 'AccountId must be the number in the Chatwoot URL (/app/accounts/<AccountId>/…).');
    const botToken = body.BotToken;
    if (typeof botToken !== 'string' || botToken.length > 1024 || /\s/.test(botToken)) throw new AppError('INVALID_REQUEST', "BotToken must be the agent bot's access token, without spaces.");
    const inboxes = body.InboxIds ?? [];
    if (!Array.isArray(inboxes) || inboxes.length > MAX_INBOXES || !inboxes.every((i) => Number.isSafeInteger(i) && (i as number) > 0)) {
      throw new AppError('INVALID_REQUEST', `InboxIds must be at most ${MAX_INBOXES} inbox numbers.`);
    }
    if (!this.allowPrivateNetwork && !(await checkPublicUrl(baseUrl))) {
      throw new AppError('CHANNEL_REJECTED', 'BaseUrl must be a public address.', { Description: 'BaseUrl resolves to a private, loopback or reserved address' });
    }
    const credentials = { baseUrl, accountId, botToken, inboxIds: inboxes.join(',') };
    const profile = await chatwootCall(credentials, 'GET', 'profile', undefined, this.allowPrivateNetwork);
    if (!profile.ok) throw new AppError('CHANNEL_REJECTED', 'Chatwoot refused the bot token.', { Description: profile.error });
    const account = `${new URL(baseUrl).host} #${accountId}`;
    return { credentials, account, reply: { Account: account } };
  }

  async disconnect(): Promise<void> {
    // The agent bot stays in Chatwoot until an administrator removes it; its dead webhook path answers 404.
  }

  /** Chatwoot signs nothing: the unguessable ChannelId found the connection, parse checks the account. */
  verify(): boolean {
    return true;
  }

  parse(body: unknown, _account: string | null, credentials: Credentials): InboundEvent[] {
    return parseChatwoot(body, credentials);
  }

  render(parts: ReplyPart[], recipient: string): PlatformCall[] {
    return renderChatwoot(parts, recipient);
  }

  /** The bot asked for a person: the conversation opens for Chatwoot's agents. */
  requested(recipient: string): PlatformCall {
    return { method: `${messagesPath(recipient)}/toggle_status`, params: { status: 'open' } };
  }

  async send(call: PlatformCall, credentials: Credentials): Promise<SendResult> {
    if (call.method === PAUSE_METHOD) return { ok: true };
    return chatwootCall(credentials, 'POST', call.method, call.params, this.allowPrivateNetwork);
  }
}

/** An http(s) URL without credentials, query or fragment, kept without its trailing slash. */
function baseUrlOf(value: unknown): string {
  let url: URL | null = null;
  try {
    url = typeof value === 'string' && value.length <= 512 ? new URL(value) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw new AppError('INVALID_REQUEST', 'BaseUrl must be the http(s) address of the Chatwoot installation, such as https://app.chatwoot.com.');
  }
  return `${url.origin}${withoutTrailingSlashes(url.pathname)}`;
}
