// What a platform sends is bounded at the inbound edge with the API's own limits (docs/channels.md
// "Bounds on what platforms send"), whatever the platform: a verified request is still only as
// trustworthy as whoever holds the secret. Nothing here refuses the request: platforms retry a
// non-2xx answer for a day, so an update is run in a bounded form, or acknowledged and dropped.
//
// - the update's key (Telegram update_id, WhatsApp id, Messenger mid): over 256 characters or with
//   a control character, its SHA-256 stands in for it, so the update still runs once;
// - the user id (the platform's chat / sender id): over 256 characters (as the API's UserId) or
//   with a control character, the update is dropped: it names nobody a reply could reach;
// - a button payload over 256 characters (as the API's Command) or with a NUL: dropped, it is
//   none of the bot's buttons; a callback query id like a user id;
// - the text: cut to 16,384 characters (as the API's Text), never inside a surrogate pair;
// - NUL (which PostgreSQL cannot store) in the text and profile values becomes U+FFFD, as a
//   decoder shows a character it cannot represent; the message id is left out if it is not an id.
import crypto from 'node:crypto';
import type { InboundEvent } from './model.js';

export const INBOUND_LIMITS = Object.freeze({ id: 256, payload: 256, text: 16_384, profileValue: 256 });

function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const isId = (value: string, max = INBOUND_LIMITS.id) => value.length > 0 && value.length <= max && !hasControl(value);
const withoutNul = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text);

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The event within the bounds, or null when it is dropped. */
export function boundInbound(event: InboundEvent): InboundEvent | null {
  if (!isId(event.userId)) return null;
  if (event.callbackQueryId !== undefined && !isId(event.callbackQueryId)) return null;
  if (event.payload !== undefined && (event.payload.length > INBOUND_LIMITS.payload || event.payload.includes('\u0000'))) return null;
  const { messageId, text, ...rest } = event;
  return {
    ...rest,
    key: isId(event.key) ? event.key : `sha256:${crypto.createHash('sha256').update(event.key).digest('hex')}`,
    ...(messageId !== undefined && isId(messageId) ? { messageId } : {}),
    ...(text !== undefined ? { text: withoutNul(cut(text, INBOUND_LIMITS.text)) } : {}),
    profile: Object.fromEntries(Object.entries(event.profile).map(([name, value]) => [name, withoutNul(cut(value, INBOUND_LIMITS.profileValue))])),
  };
}
