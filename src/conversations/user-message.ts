// What a user sent, as every channel hands it to the conversation service: its own file so the
// turn (user-turn.ts) and the turn's record writes (turn-records.ts) both read it without a circle.
import type { BroadcastButtonClick } from './broadcast-message.js';
import type { VariableUpdate } from './values.js';

/** What a user sent, as every channel hands it to the conversation service. */
export interface UserMessage {
  command?: string;
  text?: string;
  forcedBehaviour?: string;
  forcedInteraction?: string;
  forcedBehaviourKey?: string;
  variables: VariableUpdate[];
  tags: string[];
  dropTags: string[];
  /** the channel a conversation this message creates starts on (default `custom`) */
  newChannel?: string;
  /** a click on a button of a broadcast's own message, resolved by the service (broadcast-message.ts) */
  broadcastButton?: BroadcastButtonClick;
  /** a messaging platform's update: recorded with the turn, so that a redelivery runs nothing */
  inbound?: { channelId: string; key: string; messageId?: string; replyAddress?: string };
}
