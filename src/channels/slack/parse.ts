// Slack's requests as conversation events (channels-more.md "Inbound"). Shapes from the Events API
// (api.slack.com/apis/events-api: `{type: "event_callback", team_id, event_id, event: {type,
// channel, channel_type, user, text, ts, thread_ts?, bot_id?, subtype?}}`) and the interactivity
// payloads (api.slack.com/reference/interaction-payloads/block_actions-payload: `{type:
// "block_actions", team: {id}, user: {id}, channel: {id}, container: {message_ts, thread_ts?},
// message: {ts, thread_ts?}, actions: [{type, action_id, value, action_ts}]}`).
//
// A direct message is the conversation `slack:<team>:<channel>`; a mention in a channel is the
// conversation of its thread, `slack:<team>:<channel>:<thread_ts>` (the bot answers in that thread).
import type { Credentials, InboundEvent } from '../messaging/model.js';
import { kindText } from '../messaging/platform.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** Slack ids (team, channel, user) and message timestamps never hold a colon: it separates the UserId's fields. */
const field = (v: unknown): string | undefined => {
  const s = str(v);
  return s !== undefined && !s.includes(':') ? s : undefined;
};

/** Direct-message channel ids begin with D (api.slack.com/docs/conversations-api). */
const isDirect = (channel: string) => channel.startsWith('D');

export function parseSlack(body: unknown, credentials: Credentials): InboundEvent[] {
  if (!isObject(body)) return [];
  if (body.type === 'event_callback') return eventOf(body, credentials);
  if (body.type === 'block_actions') return clickOf(body, credentials);
  return [];
}

/** Another workspace's request (one Slack app may be installed in several) is not this bot's. */
const ours = (team: string | undefined, credentials: Credentials) => team !== undefined && (!credentials.teamId || team === credentials.teamId);

function eventOf(body: Json, credentials: Credentials): InboundEvent[] {
  const team = field(body.team_id);
  const key = str(body.event_id);
  const event = body.event;
  if (!ours(team, credentials) || key === undefined || !isObject(event)) return [];
  const channel = field(event.channel);
  const user = field(event.user);
  if (channel === undefined || user === undefined || user === credentials.botUserId) return [];
  // Bots (this one included) and edits, deletions, joins… are not people writing.
  if (event.bot_id !== undefined || (event.subtype !== undefined && event.subtype !== 'file_share')) return [];
  const text = typeof event.text === 'string' ? event.text : '';
  const messageId = field(event.ts);
  if (event.type === 'message' && event.channel_type === 'im') {
    return [{ key, userId: `slack:${team}:${channel}`, kind: 'text', text: textOf(text, event.subtype), profile: { slack_user: user }, messageId }];
  }
  if (event.type === 'app_mention') {
    const thread = field(event.thread_ts) ?? messageId;
    if (thread === undefined) return [];
    // The mention itself is not what the user says to the bot.
    const said = credentials.botUserId ? text.replaceAll(`<@${credentials.botUserId}>`, '').trim() : text.trim();
    return [{ key, userId: `slack:${team}:${channel}:${thread}`, kind: 'text', text: textOf(said, event.subtype), profile: { slack_user: user }, messageId }];
  }
  return [];
}

/** A file shared without words reaches the flow as `[file]` (channels.md: kinds by name). */
const textOf = (text: string, subtype: unknown) => (text === '' ? kindText(subtype === 'file_share' ? 'file' : 'message') : text);

function clickOf(body: Json, credentials: Credentials): InboundEvent[] {
  const team = isObject(body.team) ? field(body.team.id) : undefined;
  const channel = isObject(body.channel) ? field(body.channel.id) : isObject(body.container) ? field(body.container.channel_id) : undefined;
  const user = isObject(body.user) ? field(body.user.id) : undefined;
  const action = Array.isArray(body.actions) ? body.actions.find(isObject) : undefined;
  if (!ours(team, credentials) || channel === undefined || user === undefined || !action) return [];
  // Link buttons report a click too, without a value: the browser already opened the link.
  const value = str(action.value);
  const stamp = str(action.action_ts);
  if (action.type !== 'button' || value === undefined || stamp === undefined) return [];
  const message = isObject(body.message) ? body.message : {};
  const container = isObject(body.container) ? body.container : {};
  const thread = field(message.thread_ts) ?? field(container.thread_ts) ?? field(message.ts) ?? field(container.message_ts);
  const userId = isDirect(channel) || thread === undefined ? `slack:${team}:${channel}` : `slack:${team}:${channel}:${thread}`;
  return [{ key: `action:${team}:${channel}:${stamp}:${str(action.action_id) ?? ''}`, userId, kind: 'click', payload: value, profile: { slack_user: user } }];
}
