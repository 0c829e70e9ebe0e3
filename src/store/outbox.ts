import type { DeliveryStatus, DeliveryTargetName, NewOutboxRow, OutboxRow } from '../webhooks/model.js';
import type { Queryable } from './driver.js';

interface Row {
  id: number;
  target: string;
  delivery_id: string;
  bot_id: string;
  conversation_id: number;
  user_id: string;
  event: string;
  body: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: number;
  claimed_until: number;
  created_at: number;
  delivered_at: number | null;
  broadcast: string | null;
}

const toRow = (r: Row): OutboxRow => ({
  id: Number(r.id),
  target: r.target as DeliveryTargetName,
  deliveryId: r.delivery_id,
  botId: r.bot_id,
  conversationId: Number(r.conversation_id),
  userId: r.user_id,
  event: r.event,
  body: r.body,
  status: r.status as DeliveryStatus,
  attempts: Number(r.attempts),
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  lastError: r.last_error,
  nextAttemptAt: Number(r.next_attempt_at),
  claimedUntil: Number(r.claimed_until),
  createdAt: Number(r.created_at),
  deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
  broadcast: r.broadcast ?? null,
});

export function outboxRepository(db: Queryable) {
  return {
    async insert(row: NewOutboxRow): Promise<void> {
      await db.run(
        `INSERT INTO outbox (delivery_id, bot_id, conversation_id, user_id, event, body, status, attempts, next_attempt_at, claimed_until, created_at, target, broadcast)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, 0, $7, $8, $9)`,
        [row.deliveryId, row.botId, row.conversationId, row.userId, row.event, row.body, row.createdAt, row.target ?? 'webhook', row.broadcast ?? null],
      );
    },
    /**
     * Claims up to `limit` due deliveries for one attempt each, until `until`: rows first in line
     * for their conversation and target (a row waits while an older one of the same conversation
     * and target is pending — order per conversation: a webhook outage does not hold up a
     * platform's deliveries), not claimed by anyone, of webhook endpoints that are not paused. On
     * PostgreSQL the candidates are locked with FOR UPDATE SKIP LOCKED, so several nodes claiming
     * at once never get the same row; SQLite has a single writer.
     */
    async claimDue(now: number, until: number, limit: number): Promise<OutboxRow[]> {
      const lock = db.dialect === 'postgres' ? 'FOR UPDATE OF o SKIP LOCKED' : '';
      const rows = await db.all<Row>(
        `UPDATE outbox SET claimed_until = $2 WHERE id IN (
           SELECT o.id FROM outbox o
           WHERE o.status = 'pending' AND o.next_attempt_at <= $1 AND o.claimed_until <= $1 AND (o.broadcast IS NULL OR o.claimed_until = 0)
             AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.conversation_id = o.conversation_id AND e.target = o.target AND e.status = 'pending' AND e.id < o.id)
             AND (o.target <> 'webhook' OR NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.bot_id = o.bot_id AND w.paused_until > $1))
           ORDER BY o.id LIMIT $3 ${lock})
         RETURNING *`,
        [now, until, limit],
      );
      return rows.map(toRow).sort((a, b) => a.id - b.id);
    },
    /**
     * A broadcast's row whose claim ran out with no outcome recorded: the node attempting it died
     * mid-call, and the platform may or may not have the message. It is never attempted again
     * (a broadcast reaches no one twice) but failed as `interrupted`, so the counts say so.
     */
    async anyInterrupted(now: number): Promise<boolean> {
      const row = await db.get("SELECT 1 AS one FROM outbox WHERE status = 'pending' AND broadcast IS NOT NULL AND claimed_until > 0 AND claimed_until <= $1 LIMIT 1", [now]);
      return row !== undefined;
    },
    async interruptBroadcasts(now: number): Promise<Array<{ broadcast: string; conversationId: number }>> {
      const rows = await db.all<{ broadcast: string; conversation_id: number }>(
        `UPDATE outbox SET status = 'failed', claimed_until = 0, last_error = 'interrupted: the node attempting it stopped mid-call'
         WHERE status = 'pending' AND broadcast IS NOT NULL AND claimed_until > 0 AND claimed_until <= $1
         RETURNING broadcast, conversation_id`,
        [now],
      );
      return rows.map((r) => ({ broadcast: r.broadcast, conversationId: Number(r.conversation_id) }));
    },
    /**
     * Records how an attempt went. The attempt always counts; its outcome (status, next attempt)
     * applies only if the row is still under the same claim: a retry requested while the attempt
     * was under way (requeue) wins, so that delivery is made again.
     */
    async recordAttempt(id: number, claim: number, outcome: { status: DeliveryStatus; statusCode: number | null; error: string | null; nextAttemptAt: number; at: number }): Promise<void> {
      await db.run(
        `UPDATE outbox SET attempts = attempts + 1, last_status_code = $3, last_error = $4,
           status = CASE WHEN claimed_until = $7 THEN $2 ELSE status END,
           next_attempt_at = CASE WHEN claimed_until = $7 THEN $5 ELSE next_attempt_at END,
           delivered_at = CASE WHEN $2 = 'delivered' THEN $6 ELSE delivered_at END,
           claimed_until = CASE WHEN claimed_until = $7 THEN 0 ELSE claimed_until END
         WHERE id = $1`,
        [id, outcome.status, outcome.statusCode, outcome.error, outcome.nextAttemptAt, outcome.at, claim],
      );
    },
    async byBot(botId: string, limit: number): Promise<OutboxRow[]> {
      const rows = await db.all<Row>("SELECT * FROM outbox WHERE bot_id = $1 AND target = 'webhook' ORDER BY id DESC LIMIT $2", [botId, limit]);
      return rows.map(toRow);
    },
    async byDeliveryId(botId: string, deliveryId: string): Promise<OutboxRow | null> {
      const row = await db.get<Row>("SELECT * FROM outbox WHERE bot_id = $1 AND delivery_id = $2 AND target = 'webhook'", [botId, deliveryId]);
      return row ? toRow(row) : null;
    },
    /**
     * The next pending row of this conversation and target becomes due no earlier than `until`
     * (a typing action was sent; the part it announces follows after its delay).
     */
    async holdNext(row: Pick<OutboxRow, 'id' | 'conversationId' | 'target'>, until: number): Promise<void> {
      await db.run(
        `UPDATE outbox SET next_attempt_at = $4 WHERE next_attempt_at < $4 AND id = (
           SELECT MIN(id) FROM outbox WHERE conversation_id = $1 AND target = $2 AND status = 'pending' AND id > $3)`,
        [row.conversationId, row.target, row.id, until],
      );
    },
    /** Deletes up to `batch` rows delivered before `before` (the partial index outbox_delivered); returns how many went. */
    async pruneDelivered(before: number, batch: number): Promise<number> {
      return db.run("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'delivered' AND delivered_at < $1 LIMIT $2)", [before, batch]);
    },
    /** Failed rows whose last attempt was before `before` (outbox_due covers status and that time). */
    /** The bots with a row delivered at or after `since`: only they can be over their count. */
    async botsDeliveredSince(since: number): Promise<string[]> {
      const rows = await db.all<{ bot_id: string }>("SELECT DISTINCT bot_id FROM outbox WHERE status = 'delivered' AND delivered_at >= $1", [since]);
      return rows.map((r) => r.bot_id);
    },
    /** Deletes up to `batch` of a bot's delivered rows older than its newest `keep` rows (of any status); how many went. */
    async pruneDeliveredBeyond(botId: string, keep: number, batch: number): Promise<number> {
      const edge = await db.get<{ id: number }>('SELECT id FROM outbox WHERE bot_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2', [botId, keep]);
      if (!edge) return 0;
      return db.run("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE bot_id = $1 AND id <= $2 AND status = 'delivered' LIMIT $3)", [botId, Number(edge.id), batch]);
    },
    async pruneFailed(before: number, batch: number): Promise<number> {
      return db.run("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'failed' AND next_attempt_at < $1 LIMIT $2)", [before, batch]);
    },
    /** Sends one again: back to pending, due now. */
    async requeue(id: number, now: number): Promise<void> {
      await db.run("UPDATE outbox SET status = 'pending', next_attempt_at = $2, claimed_until = 0 WHERE id = $1", [id, now]);
    },
    async endpoint(botId: string): Promise<{ consecutiveFailures: number; pausedUntil: number }> {
      const row = await db.get<{ consecutive_failures: number; paused_until: number }>('SELECT consecutive_failures, paused_until FROM webhook_endpoints WHERE bot_id = $1', [botId]);
      return { consecutiveFailures: Number(row?.consecutive_failures ?? 0), pausedUntil: Number(row?.paused_until ?? 0) };
    },
    async setEndpoint(botId: string, consecutiveFailures: number, pausedUntil: number): Promise<void> {
      await db.run(
        `INSERT INTO webhook_endpoints (bot_id, consecutive_failures, paused_until) VALUES ($1, $2, $3)
         ON CONFLICT (bot_id) DO UPDATE SET consecutive_failures = $2, paused_until = $3`,
        [botId, consecutiveFailures, pausedUntil],
      );
    },
  };
}
