// A WhatsApp Cloud API `messages` webhook as conversation events (channels.md "Inbound"). The
// shape is Meta's (WhatsApp "messages webhook reference"): {object: "whatsapp_business_account",
// entry: [{id, changes: [{field: "messages", value: {metadata: {phone_number_id}, contacts:
// [{profile: {name}, wa_id}], messages: [{from, id, timestamp, type, <type>: {…}}], statuses}}]}]}.
// Statuses (sent/delivered/read/failed), errors and other fields carry nothing for a flow.
import type { InboundEvent } from '../messaging/model.js';
import { kindText } from '../messaging/platform.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A WhatsApp user id (`wa_id`, a phone number in digits; business-scoped ids have letters and dots). */
const USER_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_ID_LENGTH = 256;

/** Message types that carry no text, named as the flow reads them (`[image]` …). */
const KINDS: Record<string, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'file',
  sticker: 'sticker',
  location: 'location',
  contacts: 'contact',
  reaction: 'reaction',
  order: 'order',
};

export function parseWhatsApp(body: unknown, phoneNumberId: string | null): InboundEvent[] {
  if (!isObject(body) || body.object !== 'whatsapp_business_account') return [];
  const events: InboundEvent[] = [];
  for (const entry of list(body.entry)) {
    if (!isObject(entry)) continue;
    for (const change of list(entry.changes)) {
      if (!isObject(change) || change.field !== 'messages' || !isObject(change.value)) continue;
      const value = change.value;
      // One app's webhook carries every phone number of the app: only the connected one is ours.
      const to = isObject(value.metadata) ? value.metadata.phone_number_id : undefined;
      if (phoneNumberId !== null && String(to) !== phoneNumberId) continue;
      const names = new Map<string, string>();
      for (const contact of list(value.contacts)) {
        if (isObject(contact) && typeof contact.wa_id === 'string' && isObject(contact.profile) && typeof contact.profile.name === 'string') names.set(contact.wa_id, contact.profile.name);
      }
      for (const message of list(value.messages)) {
        const event = isObject(message) ? eventOf(message, names) : null;
        if (event) events.push(event);
      }
    }
  }
  return events;
}

function eventOf(message: Json, names: Map<string, string>): InboundEvent | null {
  const from = message.from;
  const id = message.id;
  if (typeof from !== 'string' || !USER_ID.test(from) || typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH) return null;
  const name = names.get(from);
  const profile: Record<string, string> = { phone: from, ...(name ? { name: name.slice(0, 256) } : {}) };
  const base = { key: id, userId: `whatsapp:${from}`, profile, messageId: id };
  const type = message.type;
  const content = typeof type === 'string' && isObject(message[type]) ? (message[type] as Json) : {};
  switch (type) {
    case 'text':
      return typeof content.body === 'string' ? { ...base, kind: 'text', text: content.body } : null;
    case 'interactive': {
      // A reply button (interactive.button_reply.id) or a list row (interactive.list_reply.id).
      const reply = isObject(content.button_reply) ? content.button_reply : isObject(content.list_reply) ? content.list_reply : null;
      if (reply && typeof reply.id === 'string') return { ...base, kind: 'click', payload: reply.id };
      return { ...base, kind: 'text', text: kindText('form') };
    }
    case 'button':
      // A template's quick-reply button: its payload, else its text.
      if (typeof content.payload === 'string' && content.payload !== '') return { ...base, kind: 'click', payload: content.payload };
      return typeof content.text === 'string' ? { ...base, kind: 'text', text: content.text } : null;
    case 'system':
      // WhatsApp's own notices (the user changed number): nobody said anything.
      return null;
    case 'audio':
      return { ...base, kind: 'text', text: kindText(content.voice === true ? 'voice' : 'audio') };
    default:
      return { ...base, kind: 'text', text: kindText(KINDS[String(type)] ?? 'message') };
  }
}
