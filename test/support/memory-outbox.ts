// The webhook outbox's storage port (src/webhooks/port.ts) in memory, for tests of the delivery
// rules without a database. It must behave like the SQL stores: the contract suite
// (test/store/outbox-port.test.ts) runs on it, SQLite and PostgreSQL alike. Rows are written by a
// turn (the conversations' port); here a test adds them with `add`. A broadcast's tallies are
// kept as the calls made (`noted`).
import type { EndpointState, OutboxStorage, OutboxWrites } from '../../src/webhooks/port.js';
import type { NewOutboxRow, OutboxRow } from '../../src/webhooks/model.js';
import { memoryTransactions } from './memory-transactions.js';

interface Tables {
  rows: OutboxRow[];
  endpoints: Map<string, EndpointState>;
  noted: Array<{ tag: string; conversationId: number; ok: boolean; reason: string | null }>;
  nextId: number;
}

const INTERRUPTED = 'interrupted: the node attempting it stopped mid-call';

export class MemoryOutbox implements OutboxStorage {
  private tables: Tables = { rows: [], endpoints: new Map(), noted: [], nextId: 1 };
  private readonly inTransaction = memoryTransactions(
    () => this.tables,
    (committed) => (this.tables = committed),
  );
  readonly outbox: OutboxWrites['outbox'];
  readonly broadcasts: OutboxWrites['broadcasts'];

  constructor() {
    ({ outbox: this.outbox, broadcasts: this.broadcasts } = this.writes(() => this.tables));
  }

  /** A row as a turn writes it. */
  add(row: NewOutboxRow): void {
    this.tables.rows.push({
      ...row,
      id: this.tables.nextId++,
      target: row.target ?? 'webhook',
      broadcast: row.broadcast ?? null,
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: row.createdAt,
      claimedUntil: 0,
      deliveredAt: null,
    });
  }

  transaction<T>(work: (tx: OutboxWrites) => Promise<T>): Promise<T> {
    return this.inTransaction((draft) => work(this.writes(() => draft)));
  }

  private writes(t: () => Tables): OutboxWrites {
    const byId = (id: number) => t().rows.find((r) => r.id === id);
    const pending = () => t().rows.filter((r) => r.status === 'pending');
    const firstInLine = (o: OutboxRow) => !pending().some((e) => e.conversationId === o.conversationId && e.target === o.target && e.id < o.id);
    const paused = (o: OutboxRow, now: number) => o.target === 'webhook' && (t().endpoints.get(o.botId)?.pausedUntil ?? 0) > now;
    const interrupted = (now: number) => pending().filter((r) => r.broadcast !== null && r.claimedUntil > 0 && r.claimedUntil <= now);
    const copy = (r: OutboxRow): OutboxRow => ({ ...r });
    const webhookRows = (botId: string) => t().rows.filter((r) => r.botId === botId && r.target === 'webhook');
    return {
      outbox: {
        claimDue: async (now, until, limit) => {
          const due = pending()
            .filter((o) => o.nextAttemptAt <= now && o.claimedUntil <= now && (o.broadcast === null || o.claimedUntil === 0) && firstInLine(o) && !paused(o, now))
            .sort((a, b) => a.id - b.id)
            .slice(0, limit);
          for (const o of due) o.claimedUntil = until;
          return due.map(copy);
        },
        anyInterrupted: async (now) => interrupted(now).length > 0,
        interruptBroadcasts: async (now) =>
          interrupted(now).map((r) => {
            Object.assign(r, { status: 'failed', claimedUntil: 0, lastError: INTERRUPTED });
            return { broadcast: r.broadcast!, conversationId: r.conversationId };
          }),
        recordAttempt: async (id, claim, outcome) => {
          const r = byId(id);
          if (!r) return;
          Object.assign(r, { attempts: r.attempts + 1, lastStatusCode: outcome.statusCode, lastError: outcome.error });
          if (outcome.status === 'delivered') r.deliveredAt = outcome.at;
          if (r.claimedUntil === claim) Object.assign(r, { status: outcome.status, nextAttemptAt: outcome.nextAttemptAt, claimedUntil: 0 });
        },
        holdNext: async (row, until) => {
          const next = pending()
            .filter((o) => o.conversationId === row.conversationId && o.target === row.target && o.id > row.id)
            .sort((a, b) => a.id - b.id)[0];
          if (next && next.nextAttemptAt < until) next.nextAttemptAt = until;
        },
        byBot: async (botId, limit) =>
          webhookRows(botId)
            .sort((a, b) => b.id - a.id)
            .slice(0, limit)
            .map(copy),
        byDeliveryId: async (botId, deliveryId) => {
          const r = webhookRows(botId).find((o) => o.deliveryId === deliveryId);
          return r ? copy(r) : null;
        },
        requeue: async (id, now) => {
          const r = byId(id);
          if (r) Object.assign(r, { status: 'pending', nextAttemptAt: now, claimedUntil: 0 });
        },
        endpoint: async (botId) => ({ ...(t().endpoints.get(botId) ?? { consecutiveFailures: 0, pausedUntil: 0 }) }),
        setEndpoint: async (botId, consecutiveFailures, pausedUntil) => void t().endpoints.set(botId, { consecutiveFailures, pausedUntil }),
      },
      broadcasts: { noteDelivery: async (tag, conversationId, ok, reason) => void t().noted.push({ tag, conversationId, ok, reason }) },
    };
  }
}
