// The conversation storage port (src/conversations/port.ts) in memory, for unit tests of the
// conversation service. It must behave like the SQL stores: the contract suite
// (test/store/conversation-port.test.ts) runs on it, SQLite and PostgreSQL alike.
import type { BotRecord } from '../../src/bots/model.js';
import type { ConversationRecord, NewMessage, NewMissedText, ShareRecord, StoredShare } from '../../src/conversations/model.js';
import type { ConversationStorage, TurnWrites } from '../../src/conversations/port.js';
import type { ReplyPart } from '../../src/engine/types.js';
import type { NewOutboxRow } from '../../src/webhooks/model.js';
import { sha256 } from '../../src/shared/keys.js';
import { memoryTransactions } from './memory-transactions.js';

interface Message extends NewMessage {
  id: number;
  conversationId: number;
  createdAt: number;
}

interface Tables {
  conversations: Map<number, ConversationRecord>;
  messages: Message[];
  shares: Map<string, StoredShare>;
  outbox: NewOutboxRow[];
  missed: NewMissedText[];
  usage: Map<string, Record<string, number>>;
  /** `${botId}/${day}` → questions asked of the knowledge that day */
  knowledgeQuestions: Map<string, { answered: number; unanswered: number }>;
  /** messaging updates run: `<channel id>/<key>` → conversation id */
  seen: Map<string, number | null>;
  lastInbound: Map<number, string>;
  nextId: number;
}

const clone = <T>(value: T): T => structuredClone(value);

export class MemoryStorage implements ConversationStorage {
  private tables: Tables = {
    conversations: new Map(),
    messages: [],
    shares: new Map(),
    outbox: [],
    missed: [],
    usage: new Map(),
    knowledgeQuestions: new Map(),
    seen: new Map(),
    lastInbound: new Map(),
    nextId: 1,
  };
  readonly bots = { byId: async (id: string) => this.botsById.get(id) ?? null };
  /** no broadcasts in memory: the store tests cover them (test/e2e/broadcasts-*.test.ts) */
  readonly broadcasts = { lastUserAt: async () => null, messageButton: async () => null };
  readonly conversations: ConversationStorage['conversations'];
  readonly shares: ConversationStorage['shares'];
  private readonly inTransaction = memoryTransactions(
    () => this.tables,
    (committed) => (this.tables = committed),
  );
  /** nothing is kept anywhere but in the tables */
  readonly eraseDeleted = async (): Promise<void> => undefined;

  constructor(private readonly botsById: Map<string, BotRecord> = new Map()) {
    const writes = this.writesOver(() => this.tables);
    this.conversations = {
      ...writes.conversations,
      remove: async (id) => this.remove(id),
      forgettingIds: async () => [...this.tables.conversations.values()].filter((c) => c.forgetting).map((c) => c.id),
    };
    this.shares = {
      expiredAuto: async (now) => [...this.tables.shares.values()].filter((s) => s.mode === 'auto' && !s.handedBack && s.expiresAt <= now).map(clone),
      markHandedBack: writes.shares.markHandedBack,
    };
  }

  /** What the outbox received, in order (tests look at it). */
  get outbox(): readonly NewOutboxRow[] {
    return this.tables.outbox;
  }

  usageOf(accountId: string, month: string): Record<string, number> | undefined {
    return this.tables.usage.get(`${accountId}/${month}`);
  }

  /** Serialized like a database transaction; a throw leaves the tables as they were. */
  transaction<T>(work: (tx: TurnWrites) => Promise<T>): Promise<T> {
    return this.inTransaction((draft) => work(this.writesOver(() => draft)));
  }

  private remove(id: number): void {
    this.tables.conversations.delete(id);
    this.tables.messages = this.tables.messages.filter((m) => m.conversationId !== id);
    for (const [hash, share] of this.tables.shares) if (share.conversationId === id) this.tables.shares.delete(hash);
    this.tables.outbox = this.tables.outbox.filter((row) => row.conversationId !== id);
    for (const [key, owner] of this.tables.seen) if (owner === id) this.tables.seen.delete(key);
    this.tables.lastInbound.delete(id);
    this.tables.missed = this.tables.missed.filter((row) => row.conversationId !== id);
  }

  private writesOver(t: () => Tables): TurnWrites {
    const messagesOf = (id: number) =>
      t()
        .messages.filter((m) => m.conversationId === id)
        .sort((a, b) => a.id - b.id);
    const partsOf = (messages: Message[]) => messages.flatMap((m) => m.parts);
    return {
      broadcasts: { markSent: async () => false, behaviourOf: async () => null, noteClick: async () => undefined },
      notes: { insert: async () => undefined },
      agentTraces: { add: async () => undefined },
      agentApprovals: { add: async () => undefined },
      conversations: {
        byUser: async (botId, userId) => clone([...t().conversations.values()].find((c) => c.botId === botId && c.userId === userId) ?? null),
        byId: async (id) => clone(t().conversations.get(id) ?? null),
        historyJson: async (id) => JSON.stringify(partsOf(messagesOf(id))),
        storedMessages: async (id, limit) =>
          messagesOf(id)
            .slice(-limit)
            .map((m) => ({ direction: m.direction, parts: clone(m.parts), createdAt: m.createdAt })),
        historyParts: async (id, limit) => {
          const parts = partsOf(messagesOf(id));
          return limit === undefined ? parts : limit === 0 ? [] : parts.slice(-limit);
        },
        endedBans: async (today, limit = 500) =>
          [...t().conversations.values()]
            .filter((c) => c.controlState === 3 && c.banExpiration !== null && c.banExpiration < today)
            .slice(0, limit)
            .map((c) => ({ botId: c.botId, userId: c.userId })),
        insert: async (c) => {
          if ([...t().conversations.values()].some((x) => x.botId === c.botId && x.userId === c.userId)) return null;
          const id = t().nextId++;
          t().conversations.set(id, clone({ ...c, id }));
          return id;
        },
        save: async (c) => {
          const stored = t().conversations.get(c.id);
          if (!stored || stored.revision !== c.revision) return false;
          t().conversations.set(c.id, clone({ ...c, revision: c.revision + 1 }));
          return true;
        },
        appendMessages: async (conversationId, messages, now) => {
          for (const m of messages) t().messages.push({ ...clone(m), id: t().nextId++, conversationId, createdAt: now });
          const all = messagesOf(conversationId);
          return { messages: all.length, bytes: all.reduce((sum, m) => sum + Buffer.byteLength(JSON.stringify(m.parts)), 0) };
        },
        trimHistory: async (conversationId, maxMessages, maxBytes) => {
          const newestFirst = messagesOf(conversationId).reverse();
          let bytes = 0;
          const keep = new Set<number>();
          for (const [i, m] of newestFirst.entries()) {
            bytes += Buffer.byteLength(JSON.stringify(m.parts));
            if (i > 0 && (i >= maxMessages || bytes > maxBytes)) break;
            keep.add(m.id);
          }
          const before = t().messages.length;
          t().messages = t().messages.filter((m) => m.conversationId !== conversationId || keep.has(m.id));
          return before - t().messages.length;
        },
        takePending: async (conversationId) => {
          const pending = messagesOf(conversationId).filter((m) => m.pending);
          for (const m of pending) m.pending = false;
          return partsOf(pending) as ReplyPart[];
        },
      },
      outbox: { insert: async (row) => void t().outbox.push(clone(row)) },
      channels: {
        markSeen: async (channelId, key, conversationId) => {
          const id = `${channelId}/${key}`;
          if (t().seen.has(id)) return false;
          t().seen.set(id, conversationId);
          return true;
        },
        noteLastInbound: async (conversationId, messageId) => void t().lastInbound.set(conversationId, messageId),
        noteReplyAddress: async () => undefined,
      },
      missedTexts: {
        add: async (conversationId, rows, keep) => {
          t().missed.push(...rows.map(clone));
          const own = t().missed.filter((row) => row.conversationId === conversationId);
          t().missed = t().missed.filter((row) => row.conversationId !== conversationId || own.indexOf(row) >= own.length - keep);
        },
      },
      accounts: {
        addUsage: async (accountId, month, add) => {
          const key = `${accountId}/${month}`;
          const row = t().usage.get(key) ?? { messages: 0, replies: 0, notifications: 0, apiCalls: 0 };
          for (const [name, n] of Object.entries(add)) row[name] = (row[name] ?? 0) + n;
          t().usage.set(key, row);
        },
      },
      analytics: {
        // CSAT answers are read from the SQL stores only (test/e2e/analytics.test.ts): nothing to keep
        addCsat: async () => undefined,
        countKnowledgeQuestions: async (botId, day, answered, unanswered) => {
          const row = t().knowledgeQuestions.get(`${botId}/${day}`) ?? { answered: 0, unanswered: 0 };
          t().knowledgeQuestions.set(`${botId}/${day}`, { answered: row.answered + answered, unanswered: row.unanswered + unanswered });
        },
      },
      shares: {
        insert: async (share: ShareRecord) => {
          const { code, ...rest } = share;
          t().shares.set(sha256(code), { ...clone(rest), codeHash: sha256(code) } as StoredShare);
        },
        makeViewOnly: async (conversationId) => {
          for (const s of t().shares.values()) if (s.conversationId === conversationId && s.mode !== 'view') s.mode = 'view';
        },
        dropAll: async (conversationId) => {
          for (const [hash, s] of t().shares) if (s.conversationId === conversationId) t().shares.delete(hash);
        },
        markHandedBack: async (codeHash) => {
          const share = t().shares.get(codeHash);
          if (!share || share.handedBack) return false;
          share.handedBack = true;
          return true;
        },
      },
    };
  }
}
