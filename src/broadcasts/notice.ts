// The `broadcast` event for the integrator's webhook (broadcasts.md "Counts"): a broadcast's
// status and counts, each time its status changes. Signed and posted like every webhook delivery.
import crypto from 'node:crypto';
import type { BotRecord } from '../bots/model.js';
import { webhookUrlOf } from '../webhooks/webhook-url.js';
import type { BroadcastRecord, RecipientCounts } from './model.js';

/** The event's body, or null when the bot has no webhook. */
export function noticeBody(bot: BotRecord, r: BroadcastRecord, counts: RecipientCounts): string | null {
  if (!webhookUrlOf(bot)) return null;
  const deliveryId = crypto.randomUUID();
  return JSON.stringify({ DeliveryId: deliveryId, Event: 'broadcast', BotAPIKey: bot.apiKey, BroadcastId: r.id, Name: r.name, Status: r.status, Run: r.run, Counts: counts });
}
