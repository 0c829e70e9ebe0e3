// Webhook deliveries as the dispatcher and the deliveries API see them.

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** Who delivers a row: the integrator's webhook, or a messaging platform (channels/messaging). */
export type DeliveryTargetName = 'webhook' | 'channel';

export interface OutboxRow {
  id: number;
  target: DeliveryTargetName;
  deliveryId: string;
  botId: string;
  conversationId: number;
  userId: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number;
  /** while an attempt is under way: the claim's deadline, which also identifies the claim */
  claimedUntil: number;
  createdAt: number;
  deliveredAt: number | null;
  /** `<broadcast id>:<run>` when the row delivers a broadcast to its recipient (broadcasts.md) */
  broadcast: string | null;
}

export type NewOutboxRow = Pick<OutboxRow, 'deliveryId' | 'botId' | 'conversationId' | 'userId' | 'event' | 'body' | 'createdAt'> & {
  /** default `webhook` */
  target?: DeliveryTargetName;
  broadcast?: string | null;
};
