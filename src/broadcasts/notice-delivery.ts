// Delivers a broadcast's `broadcast` event to the integrator's webhook: at least once, with the
// outbox's backoff, claimed so that one node attempts it at a time; given up after 20 attempts.
import type { BroadcastStorage, DueNotice } from './port.js';
import type { DeliveryTarget } from '../webhooks/delivery-target.js';
import type { OutboxRow } from '../webhooks/model.js';

const MAX_ATTEMPTS = 20;

export async function deliverNotice(
  store: Pick<BroadcastStorage, 'broadcasts'>,
  webhook: DeliveryTarget,
  notice: DueNotice,
  now: number,
  claimMs: number,
  retryDelay: (attempts: number) => number,
): Promise<void> {
  if (!(await store.broadcasts.claimNotice(notice.id, notice.body, notice.due, now + claimMs))) return;
  const deliveryId = (JSON.parse(notice.body) as { DeliveryId: string }).DeliveryId;
  // the webhook target posts a row's body, signed: the event rides in the same envelope
  const row: OutboxRow = {
    id: 0,
    target: 'webhook',
    deliveryId,
    botId: notice.botId,
    conversationId: 0,
    userId: '',
    event: 'broadcast',
    body: notice.body,
    status: 'pending',
    attempts: notice.attempts,
    lastStatusCode: null,
    lastError: null,
    nextAttemptAt: now,
    claimedUntil: now + claimMs,
    createdAt: now,
    deliveredAt: null,
    broadcast: null,
  };
  const result = await webhook.attempt(row).catch(() => ({ ok: false }));
  if (result.ok || notice.attempts + 1 >= MAX_ATTEMPTS) await store.broadcasts.noticeDone(notice.id, notice.body);
  else await store.broadcasts.retryNotice(notice.id, notice.body, now + retryDelay(notice.attempts + 1));
}
