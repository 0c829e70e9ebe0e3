// The outbox's deliveries: the dispatcher and its two targets, the integrator's webhook (built once
// here and also used by the broadcasts' notices) and the messaging platforms' calls.
import { messagingPlatforms } from '../channels/platforms.js';
import { ChannelOutbound } from '../channels/messaging/outbound.js';
import type { Metrics } from '../observability/metrics.js';
import { Dispatcher } from '../webhooks/dispatcher.js';
import { WebhookTarget } from '../webhooks/webhook-target.js';
import type { WiringBase } from './base.js';

export function deliveryParts({ config, store, clock, logError }: WiringBase, metrics: Metrics) {
  const platforms = messagingPlatforms(config);
  const channelOutbound = new ChannelOutbound({ store, platforms, metrics });
  const webhookTarget = new WebhookTarget(store, clock, { allowPrivateNetwork: config.allowPrivateNetwork });
  const dispatcher = new Dispatcher(store, clock, metrics, { claimMs: config.jobClaimSeconds * 1000, onError: logError('delivery') }, { webhook: webhookTarget, channel: channelOutbound });
  return { platforms, channelOutbound, webhookTarget, dispatcher };
}
