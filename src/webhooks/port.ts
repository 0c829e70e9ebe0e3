// What the webhook outbox needs from storage, declared here and implemented by store/outbox.ts on
// SQLite and PostgreSQL. wiring.ts hands the dispatcher and the deliveries' API this slice, never
// the whole store. Rows are written by a turn (the conversations' port); pruned by retention.
import type { BotRecord } from '../bots/model.js';
import type { DeliveryStatus, OutboxRow } from './model.js';

/** How one attempt ended: applied only while the row is still under the attempt's claim. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: number;
  at: number;
}

/** A bot's endpoint: failures in a row, and until when its deliveries wait (paused). */
export interface EndpointState {
  consecutiveFailures: number;
  pausedUntil: number;
}

export interface OutboxRepository {
  claimDue(now: number, until: number, limit: number): Promise<OutboxRow[]>;
  /** rows whose claim ran out mid-attempt (a node stopped) */
  anyInterrupted(now: number): Promise<boolean>;
  interruptBroadcasts(now: number): Promise<Array<{ broadcast: string; conversationId: number }>>;
  recordAttempt(id: number, claim: number, outcome: AttemptOutcome): Promise<void>;
  holdNext(row: Pick<OutboxRow, 'id' | 'conversationId' | 'target'>, until: number): Promise<void>;
  byBot(botId: string, limit: number): Promise<OutboxRow[]>;
  byDeliveryId(botId: string, deliveryId: string): Promise<OutboxRow | null>;
  requeue(id: number, now: number): Promise<void>;
  endpoint(botId: string): Promise<EndpointState>;
  setEndpoint(botId: string, consecutiveFailures: number, pausedUntil: number): Promise<void>;
}

/** What one attempt's outcome writes in one transaction: the row, its endpoint, a broadcast's tally. */
export interface OutboxWrites {
  outbox: OutboxRepository;
  broadcasts: { noteDelivery(tag: string, conversationId: number, ok: boolean, reason: string | null): Promise<void> };
}

export interface OutboxStorage extends OutboxWrites {
  transaction<T>(work: (tx: OutboxWrites) => Promise<T>): Promise<T>;
}

/** The integrator's webhook needs the bot's URL and secret of the row's bot. */
export interface WebhookBots {
  bots: { byId(id: string): Promise<BotRecord | null> };
}
