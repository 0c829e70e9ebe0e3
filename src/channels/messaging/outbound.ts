// Everything a messaging conversation receives goes out through the outbox (channels.md
// "Outbound"): the turn that says it writes one row per platform call in its own transaction
// (plan), and the dispatcher makes the calls later, in order per conversation, retrying with
// backoff (ChannelTarget). A platform outage never fails, slows or loses a turn.
import crypto from 'node:crypto';
import type { BotRecord } from '../../bots/model.js';
import { STATE_REQUESTED } from '../../conversations/control.js';
import type { ConversationRecord } from '../../conversations/model.js';
import type { ReplyPart } from '../../engine/types.js';
import type { Metrics } from '../../observability/metrics.js';
import type { OutboundStorage } from './port.js';
import type { AttemptResult, DeliveryTarget } from '../../webhooks/delivery-target.js';
import type { NewOutboxRow, OutboxRow } from '../../webhooks/model.js';
import type { BroadcastMessage, TurnMessage } from '../../conversations/webhook-plan.js';
import { isMessagingChannel, type MessagingChannel, type PlatformCall } from './model.js';
import type { MessagingPlatform } from './platform.js';

/** The platform's user id of a conversation: its UserId without the `<channel>:` prefix. */
export function recipientOf(conversation: Pick<ConversationRecord, 'userId' | 'channel'>): string {
  const prefix = `${conversation.channel}:`;
  return conversation.userId.startsWith(prefix) ? conversation.userId.slice(prefix.length) : conversation.userId;
}

export function callRows(bot: BotRecord, conversation: Pick<ConversationRecord, 'id' | 'userId' | 'channel'>, calls: PlatformCall[], now: number): NewOutboxRow[] {
  return calls.map((call) => ({
    target: 'channel',
    deliveryId: crypto.randomUUID(),
    botId: bot.id,
    conversationId: conversation.id,
    userId: conversation.userId,
    event: conversation.channel,
    body: JSON.stringify(call),
    createdAt: now,
  }));
}

/**
 * A broadcast's calls under the platform's window rules (broadcasts.md "Platform rules"): outside
 * WhatsApp's window, the approved template instead of the parts; on Messenger, a message of the
 * `UPDATE` type inside the window and one with the configured message tag outside it.
 */
function broadcastCalls(platform: MessagingPlatform, parts: ReplyPart[], broadcast: BroadcastMessage, recipient: string): PlatformCall[] {
  if (broadcast.template && platform.template) return [platform.template(broadcast.template, recipient)];
  const calls = platform.render(parts, recipient);
  if (platform.channel !== 'messenger') return calls;
  const tagged = broadcast.outsideWindow && broadcast.messengerTag ? { messaging_type: 'MESSAGE_TAG', tag: broadcast.messengerTag } : { messaging_type: 'UPDATE' };
  return calls.map((call) => (call.params.messaging_type === undefined ? call : { ...call, params: { ...call.params, ...tagged } }));
}

export class ChannelOutbound implements DeliveryTarget {
  constructor(
    private readonly deps: {
      store: OutboundStorage;
      platforms: ReadonlyMap<MessagingChannel, MessagingPlatform>;
      metrics: Metrics;
    },
  ) {}

  /**
   * The outbox rows of a committed turn's messages on a messaging conversation: what the bot and
   * operators said, never the user's own words (inside the turn's transaction).
   */
  plan(bot: BotRecord, conversation: ConversationRecord, messages: TurnMessage[], now: number): NewOutboxRow[] {
    const platform = isMessagingChannel(conversation.channel) ? this.deps.platforms.get(conversation.channel) : undefined;
    if (!platform) return [];
    const recipient = recipientOf(conversation);
    const said = messages.filter((m) => m.direction !== 'USER');
    const broadcast = said.find((m) => m.broadcast)?.broadcast;
    const parts: ReplyPart[] = said.flatMap((m) => m.parts);
    const calls = broadcast ? broadcastCalls(platform, parts, broadcast, recipient) : parts.length > 0 ? platform.render(parts, recipient) : [];
    // Asking again while the request stands is harmless (opening an open conversation changes nothing).
    if (platform.requested && conversation.controlState === STATE_REQUESTED) calls.push(platform.requested(recipient));
    return calls.length === 0 ? [] : callRows(bot, conversation, calls, now);
  }

  async attempt(row: OutboxRow): Promise<AttemptResult> {
    const channel = row.event;
    const platform = isMessagingChannel(channel) ? this.deps.platforms.get(channel) : undefined;
    const connection = platform ? await this.deps.store.channels.get(row.botId, platform.channel) : null;
    if (!platform || !connection?.enabled || !connection.credentials) {
      return { ok: false, statusCode: null, error: `the bot is not connected to ${channel} any more`, retry: false };
    }
    const call = JSON.parse(row.body) as PlatformCall;
    const contact = call.onLastInbound || call.toReplyAddress ? await this.deps.store.channels.contact(row.conversationId) : null;
    const lastInboundId = call.onLastInbound ? (contact?.lastInboundId ?? null) : null;
    if (call.onLastInbound && !lastInboundId) return { ok: true, statusCode: null, error: null, holdNextMs: call.holdNextMs };
    const sent = await platform.send(call, connection.credentials, { account: connection.account, lastInboundId, replyAddress: contact?.replyAddress ?? null });
    if (sent.ok) return { ok: true, statusCode: 200, error: null, holdNextMs: call.holdNextMs };
    return { ok: false, statusCode: sent.statusCode, error: sent.error, retry: sent.retry, retryAfterMs: sent.retryAfterMs };
  }

  /** LastError of the connection and the metric follow every attempt. */
  async recorded(row: OutboxRow, result: AttemptResult, givenUp: boolean): Promise<void> {
    const outcome = result.ok ? 'delivered' : givenUp ? 'given_up' : 'failed';
    this.deps.metrics.channelDeliveries.inc({ channel: row.event, outcome });
    if (!result.ok) await this.deps.store.channels.noteError(row.botId, row.event, `${new Date().toISOString()} ${result.error ?? 'failed'}${givenUp ? ' (given up)' : ''}`);
  }
}
