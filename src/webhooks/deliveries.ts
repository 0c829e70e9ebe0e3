// The deliveries list and the retry of one delivery (api.md section 12).
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { OutboxStorage } from './port.js';
import type { BotRecord } from '../bots/model.js';

const LIST_LIMIT = 500;

export class Deliveries {
  constructor(
    private readonly store: Pick<OutboxStorage, 'outbox'>,
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  async list(bot: BotRecord) {
    const [rows, endpoint] = await Promise.all([this.store.outbox.byBot(bot.id, LIST_LIMIT), this.store.outbox.endpoint(bot.id)]);
    const paused = endpoint.pausedUntil > this.clock.now();
    return rows.map((r) => ({
      DeliveryId: r.deliveryId,
      Event: r.event,
      UserId: r.userId,
      Status: r.status === 'pending' && paused ? 'paused' : r.status,
      Attempts: r.attempts,
      LastStatusCode: r.lastStatusCode,
      LastError: r.lastError,
      CreatedAt: this.clock.iso(r.createdAt),
      DeliveredAt: r.deliveredAt === null ? null : this.clock.iso(r.deliveredAt),
    }));
  }

  async retry(bot: BotRecord, deliveryId: string) {
    const row = await this.store.outbox.byDeliveryId(bot.id, deliveryId);
    if (!row) throw new AppError('DELIVERY_NOT_FOUND');
    await this.store.outbox.requeue(row.id, this.clock.now());
    this.wake();
    return { DeliveryId: row.deliveryId, Status: 'pending' };
  }
}
