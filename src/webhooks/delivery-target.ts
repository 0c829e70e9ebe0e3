// Who delivers an outbox row. The dispatcher (claims, order per conversation, backoff for 24 h,
// several nodes) is one; the targets say how one attempt is made: a signed POST to the
// integrator's webhook, or calls to a messaging platform (channels/messaging/outbound.ts).
import type { OutboxRow } from './model.js';

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** false: retrying cannot help (the platform refused the call itself): give up at once */
  retry?: boolean;
  /** the other side asked to wait this long before the next attempt (429 retry_after, Retry-After) */
  retryAfterMs?: number;
  /** delivered a typing action: the next row of the conversation waits this long */
  holdNextMs?: number;
}

export interface DeliveryTarget {
  attempt(row: OutboxRow): Promise<AttemptResult>;
  /** told how an attempt went once it is recorded (metrics, LastError); `givenUp` when no retry follows */
  recorded?(row: OutboxRow, result: AttemptResult, givenUp: boolean): Promise<void>;
}
