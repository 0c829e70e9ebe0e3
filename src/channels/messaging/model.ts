// Messaging channels (spec channels.md) as the rest of the server sees them: a bot's connection
// to one platform, and what one inbound update asks of a conversation.

export const MESSAGING_CHANNELS = ['telegram', 'whatsapp', 'messenger', 'slack', 'sms', 'chatwoot', 'instagram', 'teams'] as const;
export type MessagingChannel = (typeof MESSAGING_CHANNELS)[number];

export function isMessagingChannel(name: string): name is MessagingChannel {
  return (MESSAGING_CHANNELS as readonly string[]).includes(name);
}

/** A platform's secrets for one bot: token, access token, app secret, verify token… */
export type Credentials = Record<string, string>;

export interface ChannelConnection {
  botId: string;
  channel: MessagingChannel;
  /** the unguessable id in the webhook URL (at least 128 random bits) */
  channelId: string;
  enabled: boolean;
  /** what the platform calls the bot's side (`@username`, a phone number id, a page id): public */
  account: string | null;
  /** decrypted on read; null once disconnected (erased) */
  credentials: Credentials | null;
  lastInboundAt: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

/** One thing a platform update asks for, in the conversation service's terms. */
export interface InboundEvent {
  /** the platform's id of the update, to run duplicates once (Telegram update_id, WhatsApp id, Messenger mid) */
  key: string;
  /** the conversation's UserId: `<channel>:<platform user id>` */
  userId: string;
  /** takeover / release: the platform's own people took the conversation or gave it back (Chatwoot) */
  kind: 'text' | 'click' | 'reset' | 'takeover' | 'release';
  /** the user's text (kind text), or the name of what was sent (`[image]`, `[location]`, …) */
  text?: string;
  /** the button's payload (kind click) */
  payload?: string;
  /** variables from the platform profile (first_name, username, name, phone …) */
  profile: Record<string, string>;
  /** the platform's id of the inbound message (WhatsApp typing indicator, Telegram callback answer) */
  messageId?: string;
  /** Telegram: the callback query to answer */
  callbackQueryId?: string;
  /** Teams: where replies to this conversation go (the verified activity's serviceUrl), kept with the conversation */
  replyAddress?: string;
}

/** One call to a platform's API, decided when a turn commits and made by the dispatcher later. */
export interface PlatformCall {
  /** Telegram: a Bot API method; Meta: a path below the Graph URL (`<phone-number-id>/messages`, `me/messages`) */
  method: string;
  params: Record<string, unknown>;
  /** a typing action: the next call of the conversation waits this long after it (TypeDelay, delay parts) */
  holdNextMs?: number;
  /** WhatsApp's typing indicator names the last inbound message, known only when it is sent */
  onLastInbound?: boolean;
  /** Teams: sent to the conversation's reply address (the last verified serviceUrl), read when it is sent */
  toReplyAddress?: boolean;
}

export type SendResult = { ok: true } | { ok: false; retry: boolean; retryAfterMs?: number; statusCode: number | null; error: string };
