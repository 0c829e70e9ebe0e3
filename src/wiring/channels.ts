// The channels around the conversation use-case: the widget's web channel and the messaging
// platforms' connections and inbound updates (the custom channel is the conversations' ChatService).
import { ChannelConnections } from '../channels/messaging/connections.js';
import { ChannelInbound } from '../channels/messaging/inbound.js';
import type { messagingPlatforms } from '../channels/platforms.js';
import { WebChannel } from '../channels/web/web-channel.js';
import type { ControlService } from '../conversations/control-service.js';
import type { EventBus } from '../conversations/events.js';
import type { ConversationService } from '../conversations/service.js';
import type { Metrics } from '../observability/metrics.js';
import type { Dispatcher } from '../webhooks/dispatcher.js';
import type { WiringBase } from './base.js';

export function channelParts(
  { config, store, clock, logError }: WiringBase,
  deps: { platforms: ReturnType<typeof messagingPlatforms>; conversations: ConversationService; control: ControlService; events: EventBus; metrics: Metrics; dispatcher: Dispatcher },
) {
  const { platforms, conversations, control, events, metrics, dispatcher } = deps;
  const connections = new ChannelConnections({ store, platforms, clock, publicUrl: () => config.publicUrl });
  const onError = logError('channel update failed');
  const inbound = new ChannelInbound({ store, connections, conversations, control, metrics, clock, wakeDispatcher: () => dispatcher.wake(), onError });
  return { connections, inbound, web: new WebChannel({ store, conversations, events, config, clock }) };
}
