// Broadcasts: the API's service and the scheduler every node runs (leases in the database, no
// scheduler service: broadcasts.md). The scheduler's notices go to the same webhook target as the
// outbox's rows.
import crypto from 'node:crypto';
import type { LiveBots } from '../bots/live.js';
import { BroadcastScheduler } from '../broadcasts/scheduler.js';
import { BroadcastService } from '../broadcasts/service.js';
import type { ConversationService } from '../conversations/service.js';
import type { DeliveryTarget } from '../webhooks/delivery-target.js';
import type { WiringBase } from './base.js';

export function broadcastParts({ config, store, clock, options, logError }: WiringBase, deps: { live: LiveBots; conversations: ConversationService; webhookTarget: DeliveryTarget }) {
  const { live } = deps;
  const scheduler = new BroadcastScheduler(store, clock, deps.conversations, deps.webhookTarget, {
    node: crypto.randomUUID(),
    claimMs: config.jobClaimSeconds * 1000,
    audiencePage: options.audiencePage,
    onError: logError('broadcasts'),
  });
  const broadcasts = new BroadcastService({
    store,
    clock,
    behavioursOf: async (bot) => ((await live.get(bot).catch(() => null))?.behaviours ? new Set((await live.get(bot)).behaviours.keys()) : null),
    audiencePage: options.audiencePage,
    wake: () => scheduler.wake(),
  });
  return { scheduler, broadcasts };
}
