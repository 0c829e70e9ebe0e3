// The broadcasts storage port (src/broadcasts/port.ts) in memory, for tests of the broadcasts'
// rules without a database. It must behave like the SQL stores: the contract suite
// (test/store/broadcast-port.test.ts) runs on it, SQLite and PostgreSQL alike. The audience's
// conversations are the ones a test adds (addConversation); no user message is kept, so a
// candidate's last user time is its conversation's creation, as in the databases.
import type { UsageAdded } from '../../src/accounts/model.js';
import type { BotRecord } from '../../src/bots/model.js';
import type { AudienceCandidate, BroadcastRecord, RecipientCounts } from '../../src/broadcasts/model.js';
import type { BroadcastStorage, BroadcastWrites, DueNotice } from '../../src/broadcasts/port.js';
import { memoryTransactions } from './memory-transactions.js';

interface Broadcast extends BroadcastRecord {
  notice: string | null;
  noticeAttempts: number;
  noticeDue: number;
}

interface Recipient {
  broadcastId: string;
  run: number;
  conversationId: number;
  channel: string;
  dueAt: number;
  status: 'pending' | 'sent' | 'delivered' | 'failed' | 'skipped';
  claimedUntil: number;
  reason: string | null;
  sentAt: number | null;
  clickedAt: number | null;
}

interface Tables {
  broadcasts: Map<string, Broadcast>;
  recipients: Recipient[];
  conversations: Array<AudienceCandidate & { botId: string }>;
  usage: Map<string, UsageAdded[]>;
}

const ACTIVE = new Set(['scheduled', 'running']);
const record = ({ notice: _n, noticeAttempts: _a, noticeDue: _d, ...b }: Broadcast): BroadcastRecord => structuredClone(b);

export class MemoryBroadcasts implements BroadcastStorage {
  private tables: Tables = { broadcasts: new Map(), recipients: [], conversations: [], usage: new Map() };
  private readonly inTransaction = memoryTransactions(
    () => this.tables,
    (committed) => (this.tables = committed),
  );
  readonly bots: BroadcastStorage['bots'];
  readonly broadcasts: BroadcastWrites['broadcasts'];
  readonly accounts = { addUsage: async (accountId: string, month: string, add: UsageAdded) => void this.tables.usage.set(`${accountId}/${month}`, [...this.usageOf(accountId, month), add]) };

  constructor(bots: ReadonlyMap<string, BotRecord>) {
    this.bots = { byId: async (id) => bots.get(id) ?? null };
    this.broadcasts = this.writes(() => this.tables).broadcasts;
  }

  /** A conversation of the bot for audiences to read; its id. */
  addConversation(botId: string, userId: string, channel: string, createdAt: number): number {
    const id = this.tables.conversations.length + 1;
    this.tables.conversations.push({ botId, conversationId: id, userId, channel, state: { variables: {}, tags: [] }, controlState: 0, banExpiration: null, forgetting: false, lastUserAt: createdAt });
    return id;
  }

  usageOf(accountId: string, month: string): UsageAdded[] {
    return this.tables.usage.get(`${accountId}/${month}`) ?? [];
  }

  transaction<T>(work: (tx: BroadcastWrites) => Promise<T>): Promise<T> {
    return this.inTransaction((draft) => work(this.writes(() => draft)));
  }

  private writes(t: () => Tables): BroadcastWrites {
    const of = (id: string, run: number) => t().recipients.filter((r) => r.broadcastId === id && r.run === run);
    const claimed = (k: { broadcastId: string; run: number; conversationId: number; claimedUntil: number }) =>
      t().recipients.find((r) => r.broadcastId === k.broadcastId && r.run === k.run && r.conversationId === k.conversationId && r.status === 'pending' && r.claimedUntil === k.claimedUntil);
    const notices = () => [...t().broadcasts.values()];
    return {
      broadcasts: {
        byId: async (botId, id) => {
          const b = t().broadcasts.get(id);
          return b && b.botId === botId ? record(b) : null;
        },
        byBot: async (botId, limit) =>
          [...t().broadcasts.values()]
            .filter((b) => b.botId === botId)
            .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
            .slice(0, limit)
            .map(record),
        insertWithin: async (b, max) => {
          if ([...t().broadcasts.values()].filter((x) => x.botId === b.botId && ACTIVE.has(x.status)).length >= max) return false;
          t().broadcasts.set(b.id, { ...structuredClone(b), notice: null, noticeAttempts: 0, noticeDue: 0 });
          return true;
        },
        update: async (id, node, change, now) => {
          const b = t().broadcasts.get(id);
          if (!b || !ACTIVE.has(b.status) || (node !== null && b.claimedBy !== node)) return false;
          Object.assign(b, { status: change.status, updatedAt: now }, change.run === undefined ? {} : { run: change.run });
          if (change.nextRunAt !== undefined) b.nextRunAt = change.nextRunAt;
          if (change.error !== undefined) b.error = change.error;
          return true;
        },
        skipPending: async (broadcastId, reason) => {
          const pending = t().recipients.filter((r) => r.broadcastId === broadcastId && r.status === 'pending');
          for (const r of pending) Object.assign(r, { status: 'skipped', reason });
          return pending.length;
        },
        counts: async (broadcastId, run): Promise<RecipientCounts> => {
          const rows = of(broadcastId, run);
          const n = (keep: (r: Recipient) => boolean) => rows.filter(keep).length;
          const reasons: Record<string, number> = {};
          for (const r of rows.filter((r) => r.reason !== null).sort((a, b) => (a.reason! < b.reason! ? -1 : 1))) reasons[r.reason!] = (reasons[r.reason!] ?? 0) + 1;
          const is = (status: Recipient['status']) => (r: Recipient) => r.status === status;
          return {
            Audience: rows.length,
            Pending: n(is('pending')),
            Sent: n((r) => r.sentAt !== null),
            Delivered: n(is('delivered')),
            Failed: n(is('failed')),
            Skipped: n(is('skipped')),
            Clicked: n((r) => r.clickedAt !== null),
            Reasons: reasons,
          };
        },
        candidates: async (botId, afterId, limit, userIds) =>
          t()
            .conversations.filter((c) => c.botId === botId && c.conversationId > afterId && (!userIds || userIds.includes(c.userId)))
            .slice(0, limit)
            .map(({ botId: _bot, ...c }) => structuredClone(c)),
        lease: async (node, now, until, limit) => {
          const due = [...t().broadcasts.values()]
            .filter((b) => (b.status === 'running' || (b.status === 'scheduled' && b.nextRunAt !== null && b.nextRunAt <= now)) && (b.claimedUntil <= now || b.claimedBy === node))
            .slice(0, limit);
          for (const b of due) Object.assign(b, { claimedUntil: until, claimedBy: node });
          return due.map(record);
        },
        release: async (node) => {
          for (const b of t().broadcasts.values()) if (b.claimedBy === node) Object.assign(b, { claimedUntil: 0, claimedBy: null });
        },
        addRecipients: async (broadcastId, run, recipients) => {
          for (const r of recipients) {
            if (of(broadcastId, run).some((x) => x.conversationId === r.conversationId)) continue;
            t().recipients.push({ broadcastId, run, ...r, status: 'pending', claimedUntil: 0, reason: null, sentAt: null, clickedAt: null });
          }
        },
        claimRecipients: async (broadcastId, run, channel, now, until, limit) => {
          const due = of(broadcastId, run)
            .filter((r) => r.status === 'pending' && r.channel === channel && r.dueAt <= now && r.claimedUntil <= now)
            .sort((a, b) => a.conversationId - b.conversationId)
            .slice(0, limit);
          for (const r of due) r.claimedUntil = until;
          const userOf = new Map(t().conversations.map((c) => [c.conversationId, c.userId]));
          return due
            .filter((r) => userOf.has(r.conversationId))
            .map((r) => ({ broadcastId, run, conversationId: r.conversationId, userId: userOf.get(r.conversationId)!, channel, claimedUntil: until }));
        },
        markUnsent: async (key, status, reason) => {
          const r = claimed(key);
          if (r) Object.assign(r, { status, reason });
          return r !== undefined;
        },
        setNotice: async (id, body, due) => {
          const b = t().broadcasts.get(id);
          if (b) Object.assign(b, { notice: body, noticeAttempts: 0, noticeDue: due });
        },
        dueNotices: async (now, limit): Promise<DueNotice[]> =>
          notices()
            .filter((b) => b.notice !== null && b.noticeDue <= now)
            .sort((a, b) => a.noticeDue - b.noticeDue)
            .slice(0, limit)
            .map((b) => ({ id: b.id, botId: b.botId, body: b.notice!, attempts: b.noticeAttempts, due: b.noticeDue })),
        claimNotice: async (id, body, due, until) => {
          const b = t().broadcasts.get(id);
          if (!b || b.notice !== body || b.noticeDue !== due) return false;
          Object.assign(b, { noticeDue: until, noticeAttempts: b.noticeAttempts + 1 });
          return true;
        },
        retryNotice: async (id, body, due) => {
          const b = t().broadcasts.get(id);
          if (b?.notice === body) b.noticeDue = due;
        },
        noticeDone: async (id, body) => {
          const b = t().broadcasts.get(id);
          if (b?.notice === body) b.notice = null;
        },
      },
    };
  }
}
