// Which webhook deliveries a committed turn causes (api.md section 12), decided inside the
// turn's transaction so that the outbox rows commit with it or not at all. It lives with the turns
// that call it (it reads conversations' records); webhooks/ delivers the rows (issue 38: in
// webhooks/ it closed a folder circle).
import crypto from 'node:crypto';
import type { ReplyPart } from '../engine/types.js';
import { isoWithOffset } from '../shared/clock.js';
import type { ConversationRecord, Direction } from './model.js';
import type { NewOutboxRow } from '../webhooks/model.js';
import { webhookUrlOf } from '../webhooks/webhook-url.js';
import type { BotRecord } from '../bots/model.js';

/** A message of a turn. `pushed`: it reaches the conversation's channel rather than being returned to the API caller. */
export interface TurnMessage {
  direction: Direction;
  parts: ReplyPart[];
  pushed: boolean;
  /** a user's message while an operator has the conversation: forwarded to the operators (api.md 3, rule 7) */
  toOperators?: boolean;
  enableUserChat?: boolean;
  /** `Creation` of the chat reply this message went out in, so a webhook's Reply equals that reply */
  creation?: string;
  /** a broadcast's message: how the platforms' windows let it out (broadcasts.md "Platform rules") */
  broadcast?: BroadcastMessage;
}

export interface BroadcastMessage {
  /** the user wrote last more than 24 hours ago */
  outsideWindow: boolean;
  /** WhatsApp outside the window: the approved template, its parameters already filled in */
  template: { name: string; language: string; parameters: string[] } | null;
  /** Messenger outside the window: the message tag configured for the bot */
  messengerTag: string | null;
}

export interface WebhookPlan {
  rows: NewOutboxRow[];
  /** includeAllChannels notifications, counted in the account's usage */
  notifications: number;
}

export function planWebhooks(bot: BotRecord, before: ConversationRecord | null, after: ConversationRecord, messages: TurnMessage[], now: number): WebhookPlan {
  const plan: WebhookPlan = { rows: [], notifications: 0 };
  if (!webhookUrlOf(bot)) return plan;
  const all = bot.settings.channels?.custom?.includeAllChannels === true;
  const onCustom = after.channel === 'custom';
  const row = (event: string, direction: Direction, reply: unknown): NewOutboxRow => {
    const deliveryId = crypto.randomUUID();
    const body = { DeliveryId: deliveryId, Event: event, BotAPIKey: bot.apiKey, UserId: after.userId, Channel: after.channel, Direction: direction, Reply: reply };
    return { deliveryId, botId: bot.id, conversationId: after.id, userId: after.userId, event, body: JSON.stringify(body), createdAt: now };
  };
  for (const m of messages) {
    const webhooksOwn = onCustom && (m.pushed || m.toOperators === true);
    if (!all && !webhooksOwn) continue;
    const reply = { Parts: m.parts, UserId: after.userId, Creation: m.creation ?? isoWithOffset(now), EnableUserChat: m.enableUserChat ?? true, ControlType: after.controlState };
    plan.rows.push(row('message', m.direction, reply));
    // Pushed and forwarded custom-channel messages are the webhook's own job; only the extra ones are notifications.
    if (all && !webhooksOwn) plan.notifications++;
  }
  const stateChanged = before !== null && (before.controlState !== after.controlState || before.operator !== after.operator);
  if (stateChanged && (all || onCustom)) {
    const state = { UserId: after.userId, State: after.controlState, Operator: after.operator, BanExpiration: after.banExpiration, BanMessage: after.banMessage };
    plan.rows.push(row('state', 'BOT', state));
  }
  return plan;
}
