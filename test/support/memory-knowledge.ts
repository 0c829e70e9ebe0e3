// The knowledge storage port (src/knowledge/port.ts) in memory, for tests of knowledge's rules
// without a database. It must behave like the SQL stores: the contract suite
// (test/store/knowledge-port.test.ts) runs on it, SQLite and PostgreSQL alike. Its word match is
// whole lowercase words (the databases also stem: the suite uses words that need none).
import type { Candidates, FaqPair, FoundPassage, KnowledgeLimits, LimitHit, NewPassage, SourceRecord } from '../../src/knowledge/model.js';
import type { KnowledgeStorage, KnowledgeWrites } from '../../src/knowledge/port.js';
import { memoryTransactions } from './memory-transactions.js';

interface Passage extends NewPassage {
  id: number;
  sourceId: string;
  botId: string;
  position: number;
}

interface Tables {
  sources: Map<string, SourceRecord & { claimedUntil: number }>;
  passages: Passage[];
  pairs: Map<string, FaqPair[]>;
  /** chunk id → the bot's vector of one model (one per passage, as in the databases) */
  vectors: Map<number, { botId: string; model: string; vector: Buffer }>;
  nextId: number;
}

const clone = <T>(value: T): T => structuredClone(value);
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export class MemoryKnowledge implements KnowledgeStorage {
  private tables: Tables = { sources: new Map(), passages: [], pairs: new Map(), vectors: new Map(), nextId: 1 };
  private readonly inTransaction = memoryTransactions(
    () => this.tables,
    (committed) => (this.tables = committed),
  );
  readonly knowledge: KnowledgeWrites['knowledge'];
  readonly faqPairs: KnowledgeWrites['faqPairs'];
  readonly vectors: KnowledgeWrites['vectors'];
  readonly knowledgeLeases: KnowledgeStorage['knowledgeLeases'];

  constructor() {
    const writes = this.writes(() => this.tables);
    ({ knowledge: this.knowledge, faqPairs: this.faqPairs, vectors: this.vectors } = writes);
    const t = () => this.tables;
    this.knowledgeLeases = {
      claim: async (id, generation, until) => {
        const s = t().sources.get(id);
        if (s && s.generation === generation && s.status === 'indexing') s.claimedUntil = until;
      },
      failAbandoned: async (now, claimedBefore, changedBefore, error) => {
        const abandoned = [...t().sources.values()].filter((s) => s.status === 'indexing' && s.claimedUntil < claimedBefore && s.updatedAt < changedBefore);
        for (const s of abandoned) Object.assign(s, { status: 'failed', error, chunks: 0, updatedAt: now });
        return abandoned.length;
      },
    };
  }

  /** Serialized like a database transaction; a throw leaves the tables as they were. */
  transaction<T>(work: (tx: KnowledgeWrites) => Promise<T>): Promise<T> {
    return this.inTransaction((draft) => work(this.writes(() => draft)));
  }

  private writes(t: () => Tables): KnowledgeWrites {
    const usage = async (botId: string, exceptId: string) => {
      const others = [...t().sources.values()].filter((s) => s.botId === botId && s.id !== exceptId);
      return { sources: others.length, bytes: others.reduce((sum, s) => sum + s.bytes, 0) };
    };
    const limitHit = async (botId: string, exceptId: string, bytes: number, limits: KnowledgeLimits, adding: boolean): Promise<LimitHit> => {
      const used = await usage(botId, exceptId);
      if (adding && used.sources + 1 > limits.sources) return 'sources';
      return used.bytes + bytes > limits.bytes ? 'bytes' : null;
    };
    const dropPassages = (sourceId: string) => {
      for (const p of t().passages.filter((p) => p.sourceId === sourceId)) t().vectors.delete(p.id);
      t().passages = t().passages.filter((p) => p.sourceId !== sourceId);
    };
    const ready = (botId: string) => t().passages.filter((p) => p.botId === botId && t().sources.get(p.sourceId)?.status === 'ready');
    const found = (p: Passage): FoundPassage => {
      const s = t().sources.get(p.sourceId)!;
      return { chunkId: p.id, sourceId: s.id, sourceName: s.name, sourceUrl: s.url, heading: p.heading, text: p.text, score: 0 };
    };
    const swapIn = async (id: string, generation: number, passages: NewPassage[], _language: string, now: number) => {
      const s = t().sources.get(id);
      if (!s || s.generation !== generation) return false;
      Object.assign(s, { status: 'ready', error: null, chunks: passages.length, updatedAt: now });
      dropPassages(id);
      passages.forEach((p, position) => t().passages.push({ id: t().nextId++, sourceId: id, botId: s.botId, position, heading: p.heading, text: p.text }));
      return true;
    };
    const knowledge: KnowledgeWrites['knowledge'] = {
      usage,
      swapIn,
      insert: async (source, limits) => {
        const hit = await limitHit(source.botId, source.id, source.bytes, limits, true);
        if (hit === null) t().sources.set(source.id, { ...clone(source), claimedUntil: 0 });
        return hit;
      },
      restart: async (botId, id, change, limits) => {
        const s = t().sources.get(id);
        if (!s || s.botId !== botId) return null;
        const hit = await limitHit(botId, id, change.bytes, limits, false);
        if (hit !== null) return { hit, generation: s.generation };
        dropPassages(id);
        Object.assign(s, {
          name: change.name,
          kind: change.kind,
          url: change.url,
          status: 'indexing',
          error: null,
          chunks: 0,
          bytes: change.bytes,
          generation: s.generation + 1,
          updatedAt: change.now,
        });
        return { hit: null, generation: s.generation };
      },
      fail: async (id, generation, error, now) => {
        const s = t().sources.get(id);
        if (s && s.generation === generation) Object.assign(s, { status: 'failed', error, chunks: 0, updatedAt: now });
      },
      get: async (botId, id) => {
        const s = t().sources.get(id);
        return s && s.botId === botId ? record(s) : null;
      },
      list: async (botId) =>
        [...t().sources.values()]
          .filter((s) => s.botId === botId)
          .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1))
          .map(record),
      passagePage: async (sourceId, generation, position, limit) => {
        if (t().sources.get(sourceId)?.generation !== generation) return [];
        const page = t()
          .passages.filter((p) => p.sourceId === sourceId && p.position > position)
          .sort((a, b) => a.position - b.position)
          .slice(0, limit);
        return page.map((p) => ({ chunkId: p.id, heading: p.heading, text: p.text, position: p.position }));
      },
      remove: async (botId, id) => {
        if (t().sources.get(id)?.botId !== botId) return false;
        dropPassages(id);
        t().pairs.delete(id);
        return t().sources.delete(id);
      },
      passageCount: async (botId, exceptSourceId) => t().passages.filter((p) => p.botId === botId && p.sourceId !== exceptSourceId).length,
      candidates: async (botId, terms, _language, cap): Promise<Candidates> => {
        if (terms.length === 0) return { passages: [], frequencies: new Map(), passageCount: 0 };
        const passages = ready(botId).sort((a, b) => a.id - b.id);
        const holding = (term: string) => passages.filter((p) => wordsOf(`${p.heading} ${p.text}`).has(term.toLowerCase()));
        const frequencies = new Map(terms.map((term) => [term, holding(term).length]));
        const matched = passages.filter((p) => terms.some((term) => wordsOf(`${p.heading} ${p.text}`).has(term.toLowerCase())));
        return { passages: matched.slice(0, cap).map(found), frequencies, passageCount: passages.length };
      },
    };
    const vectors: KnowledgeWrites['vectors'] = {
      missing: async (botId, model, limit, afterId = 0) =>
        ready(botId)
          .filter((p) => p.id > afterId && t().vectors.get(p.id)?.model !== model)
          .sort((a, b) => a.id - b.id)
          .slice(0, limit)
          .map((p) => ({ chunkId: p.id, heading: p.heading, text: p.text })),
      put: async (botId, model, list) => {
        for (const { chunkId, vector } of list) if (t().passages.some((p) => p.id === chunkId && p.botId === botId)) t().vectors.set(chunkId, { botId, model, vector: Buffer.from(vector) });
      },
      stamp: async (botId, model) => {
        const ids = [...t().vectors].filter(([, v]) => v.botId === botId && v.model === model).map(([id]) => id);
        return { count: ids.length, top: Math.max(0, ...ids), sum: ids.reduce((a, b) => a + b, 0) };
      },
      vectors: async (botId, model) =>
        [...t().vectors]
          .filter(([, v]) => v.botId === botId && v.model === model)
          .sort(([a], [b]) => a - b)
          .map(([chunkId, v]) => ({ chunkId, vector: new Uint8Array(v.vector) })),
      embeddedPerSource: async (botId, model) => {
        const counts = new Map<string, number>();
        for (const p of t().passages) if (t().vectors.get(p.id)?.botId === botId && t().vectors.get(p.id)?.model === model) counts.set(p.sourceId, (counts.get(p.sourceId) ?? 0) + 1);
        return counts;
      },
      passagesByIds: async (botId, ids) =>
        ready(botId)
          .filter((p) => ids.includes(p.id))
          .map(found),
    };
    const faqPairs: KnowledgeWrites['faqPairs'] = {
      replace: async (sourceId, pairs) => void t().pairs.set(sourceId, clone([...pairs])),
      page: async (sourceId, position, limit) =>
        (t().pairs.get(sourceId) ?? [])
          .map((p, i) => ({ ...p, position: i }))
          .filter((p) => p.position > position)
          .slice(0, limit),
    };
    return { knowledge, vectors, faqPairs };
  }
}

const record = ({ claimedUntil: _claimed, ...s }: SourceRecord & { claimedUntil: number }): SourceRecord => clone(s);
