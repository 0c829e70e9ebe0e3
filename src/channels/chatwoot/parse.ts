// Chatwoot's agent-bot webhook events as conversation events (channels-more.md "Inbound"). Shapes
// from Chatwoot's webhook documentation (chatwoot.com/hc/user-guide/articles/webhooks): every event
// carries `event`; message events are the message (`id`, `content`, `message_type`: incoming |
// outgoing | activity | template, `private`, `content_type`, `content_attributes`) with its
// `conversation` (`display_id`, the number API paths use; `inbox_id`), `account` and `inbox`;
// `conversation_status_changed` is the conversation (`id` = its display id, `status`, `inbox_id`,
// `account_id`).
import type { Credentials, InboundEvent } from '../messaging/model.js';
import { kindText } from '../messaging/platform.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const id = (v: unknown): string | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : typeof v === 'string' && /^\d{1,20}$/.test(v) ? v : undefined);

/** `InboxIds` (comma-separated) when given: only those inboxes' conversations are this bot's. */
function inboxAllowed(inbox: string | undefined, credentials: Credentials): boolean {
  if (!credentials.inboxIds) return true;
  return inbox !== undefined && credentials.inboxIds.split(',').includes(inbox);
}

export function parseChatwoot(body: unknown, credentials: Credentials): InboundEvent[] {
  if (!isObject(body) || typeof body.event !== 'string') return [];
  const conversation = isObject(body.conversation) ? body.conversation : body;
  const account = id(isObject(body.account) ? body.account.id : body.account_id) ?? id(conversation.account_id);
  const inbox = id(isObject(body.inbox) ? body.inbox.id : undefined) ?? id(conversation.inbox_id);
  if (account !== credentials.accountId || !inboxAllowed(inbox, credentials)) return [];
  if (body.event === 'conversation_status_changed') {
    const number = id(conversation.display_id) ?? id(conversation.id);
    if (number === undefined) return [];
    const kind = conversation.status === 'open' ? 'takeover' : conversation.status === 'pending' ? 'release' : undefined;
    if (!kind) return [];
    const at = id(conversation.timestamp) ?? id(conversation.last_activity_at) ?? (typeof conversation.updated_at === 'string' ? conversation.updated_at.slice(0, 40) : '');
    return [{ key: `status:${number}:${conversation.status}:${at}`, userId: `chatwoot:${account}:${number}`, kind, profile: {} }];
  }
  const number = id(conversation.display_id) ?? id(conversation.id);
  const messageId = id(body.id);
  if (number === undefined || messageId === undefined || body.private === true) return [];
  const userId = `chatwoot:${account}:${number}`;
  const attributes = isObject(body.content_attributes) ? body.content_attributes : {};
  const submitted = Array.isArray(attributes.submitted_values) ? attributes.submitted_values.find(isObject) : undefined;
  // The person picked an option of the bot's input_select: Chatwoot updates that message.
  if (body.content_type === 'input_select' && submitted && typeof submitted.value === 'string' && submitted.value !== '') {
    return [{ key: `submitted:${messageId}`, userId, kind: 'click', payload: submitted.value, profile: {} }];
  }
  if (body.event !== 'message_created' || body.message_type !== 'incoming') return [];
  const text = typeof body.content === 'string' ? body.content : '';
  const attachment = Array.isArray(body.attachments) ? body.attachments.find(isObject) : undefined;
  const kind = typeof attachment?.file_type === 'string' ? attachment.file_type : 'message';
  const sender = isObject(body.sender) ? body.sender : {};
  const profile: Record<string, string> = {};
  for (const [from, to] of [
    ['name', 'name'],
    ['email', 'email'],
    ['phone_number', 'phone'],
  ] as const) {
    if (typeof sender[from] === 'string' && sender[from] !== '') profile[to] = sender[from] as string;
  }
  return [
    { key: `message:${messageId}`, userId, kind: 'text', text: text.trim() === '' ? kindText(kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'file') : text, profile, messageId },
  ];
}
