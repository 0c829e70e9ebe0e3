// A Messenger webhook notification as conversation events (channels.md "Inbound"). Shapes from
// the Messenger Platform webhook reference (developers.facebook.com/docs/messenger-platform/
// reference/webhook-events): `{object: "page", entry: [{id, time, messaging: [event]}]}` where an
// event has `sender.id` (the PSID), `recipient.id` (the page) and one of `message` (`mid`, `text`,
// `quick_reply.payload`, `attachments[].type`, `is_echo` for the page's own messages),
// `postback` (`mid`, `title`, `payload`), `delivery`, `read`, `reaction`… Only messages and
// postbacks ask anything of a conversation; the rest, echoes and `standby` (another app owns the
// thread under the handover protocol) are nothing.
import type { InboundEvent } from '../messaging/model.js';
import { kindText } from '../messaging/platform.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined);

/** Attachment types as the flow reads them; a sticker arrives as an image with a `sticker_id`. */
const KINDS: Record<string, string> = { image: 'image', video: 'video', audio: 'audio', file: 'file', location: 'location', fallback: 'link', reel: 'video', ig_reel: 'video', template: 'template' };

/**
 * `pageId`: the connected Page; a Meta app's webhook carries every Page subscribed to the app.
 * Instagram's messaging webhooks have the same shape with `object: "instagram"`, the Instagram
 * account's id as the entry id and IGSIDs as senders (channels-more.md).
 */
export function parseMessenger(body: unknown, pageId: string | null, channel: 'messenger' | 'instagram' = 'messenger'): InboundEvent[] {
  if (!isObject(body) || body.object !== (channel === 'messenger' ? 'page' : 'instagram') || !Array.isArray(body.entry)) return [];
  const events: InboundEvent[] = [];
  for (const entry of body.entry) {
    if (!isObject(entry) || !Array.isArray(entry.messaging)) continue;
    if (pageId !== null && str(entry.id) !== pageId) continue;
    for (const item of entry.messaging) {
      const event = isObject(item) ? eventOf(item, channel) : null;
      if (event) events.push(event);
    }
  }
  return events;
}

function eventOf(item: Json, channel: string): InboundEvent | null {
  const psid = isObject(item.sender) ? str(item.sender.id) : undefined;
  if (psid === undefined) return null;
  const base = { userId: `${channel}:${psid}`, profile: {} };
  if (isObject(item.message)) {
    const message = item.message;
    const mid = str(message.mid);
    if (mid === undefined || message.is_echo === true) return null;
    const common = { ...base, key: mid, messageId: mid };
    const quickReply = isObject(message.quick_reply) ? str(message.quick_reply.payload) : undefined;
    if (quickReply !== undefined) return { ...common, kind: 'click', payload: quickReply };
    if (typeof message.text === 'string' && message.text !== '') return { ...common, kind: 'text', text: message.text };
    const first = Array.isArray(message.attachments) ? message.attachments.find(isObject) : undefined;
    const sticker = message.sticker_id !== undefined || (isObject(first?.payload) && first.payload.sticker_id !== undefined);
    const kind = sticker ? 'sticker' : (KINDS[String(first?.type)] ?? 'message');
    return { ...common, kind: 'text', text: kindText(kind) };
  }
  if (isObject(item.postback)) {
    const payload = str(item.postback.payload);
    if (payload === undefined) return null;
    // Recent postbacks carry a `mid`; older ones only the sender and the timestamp, unique enough.
    const key = str(item.postback.mid) ?? `postback:${psid}:${str(item.timestamp) ?? ''}`;
    return { ...base, key, kind: 'click', payload };
  }
  return null;
}
