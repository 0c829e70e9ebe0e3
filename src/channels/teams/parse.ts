// Bot Framework activities as conversation events (channels-more.md "Inbound", Teams). Shapes from
// the Bot Framework Activity schema (learn.microsoft.com "Bot Framework Activity schema"):
// `{type, id, timestamp, serviceUrl, channelId, from: {id, name, aadObjectId}, conversation: {id,
// conversationType, tenantId}, recipient: {id, name}, text, value, attachments, entities,
// membersAdded, channelData: {tenant: {id}}}`.
//
// The conversation is `teams:<conversation.id>`; the activity's serviceUrl (verified with its
// token before this runs) travels with the event as the address replies to it go to.
import type { Credentials, InboundEvent } from '../messaging/model.js';
import { kindText } from '../messaging/platform.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const MAX_SERVICE_URL = 512;

/** The tenant an activity comes from: `conversation.tenantId`, or Teams' `channelData.tenant.id`. */
function tenantOf(activity: Json): string | undefined {
  const conversation = isObject(activity.conversation) ? activity.conversation : {};
  const channelData = isObject(activity.channelData) ? activity.channelData : {};
  return str(conversation.tenantId) ?? (isObject(channelData.tenant) ? str(channelData.tenant.id) : undefined);
}

export function parseTeams(activity: unknown, credentials: Credentials): InboundEvent[] {
  if (!isObject(activity)) return [];
  const conversation = isObject(activity.conversation) ? str(activity.conversation.id) : undefined;
  const serviceUrl = str(activity.serviceUrl);
  const id = str(activity.id);
  const from = isObject(activity.from) ? activity.from : {};
  const bot = isObject(activity.recipient) ? str(activity.recipient.id) : undefined;
  if (conversation === undefined || serviceUrl === undefined || serviceUrl.length > MAX_SERVICE_URL || id === undefined) return [];
  // A single-tenant bot answers its own organisation only.
  if (credentials.tenantId && tenantOf(activity) !== credentials.tenantId) return [];
  const base = { key: `${conversation}|${id}`, userId: `teams:${conversation}`, replyAddress: serviceUrl };
  const profile: Record<string, string> = {};
  if (str(from.id)) profile.teams_user = from.id as string;
  if (str(from.name)) profile.name = from.name as string;

  if (activity.type === 'conversationUpdate') {
    const added = Array.isArray(activity.membersAdded) ? activity.membersAdded : [];
    const botAdded = bot !== undefined && added.some((m) => isObject(m) && m.id === bot);
    return botAdded ? [{ ...base, kind: 'reset', profile }] : [];
  }
  if (activity.type !== 'message' || str(from.id) === undefined || from.id === bot) return [];
  // A hero card's messageBack button sends its value: the button id.
  const value = str(activity.value);
  if (value !== undefined) return [{ ...base, kind: 'click', payload: value, profile, messageId: id }];
  const text = withoutMention(typeof activity.text === 'string' ? activity.text : '', activity, bot).trim();
  return [{ ...base, kind: 'text', text: text === '' ? kindText(attachmentKind(activity.attachments)) : text, profile, messageId: id }];
}

/** In a channel the user must @mention the bot: that mention (`<at>Name</at>`) is not what they say to it. */
function withoutMention(text: string, activity: Json, bot: string | undefined): string {
  const entities = Array.isArray(activity.entities) ? activity.entities : [];
  let said = text;
  for (const entity of entities) {
    if (!isObject(entity) || entity.type !== 'mention' || !isObject(entity.mentioned) || entity.mentioned.id !== bot) continue;
    const mention = str(entity.text);
    if (mention !== undefined) said = said.replaceAll(mention, '');
  }
  return said;
}

/** What a message without words carried, by its first attachment's type (channels.md: kinds by name). */
function attachmentKind(attachments: unknown): string {
  const first = Array.isArray(attachments) ? attachments.find(isObject) : undefined;
  const type = typeof first?.contentType === 'string' ? first.contentType : '';
  if (type === '') return 'message';
  const major = type.split('/')[0];
  return major === 'image' || major === 'video' || major === 'audio' ? major : 'file';
}
