// What knowledge needs from storage, declared here and implemented by store/ (knowledge.ts,
// knowledge-vectors.ts, knowledge-faq.ts, knowledge-leases.ts) on SQLite and PostgreSQL. wiring.ts
// hands the knowledge services this slice, never the whole store: what they may touch is listed here.
import type { Candidates, FaqPair, FoundPassage, KnowledgeLimits, LimitHit, NewPassage, PassageToEmbed, SourceKind, SourceRecord, StoredPassage, StoredVector, VectorStamp } from './model.js';

/** A bot's sources and passages, and the candidates of a question. */
export interface SourceRepository {
  /** Adds an `indexing` source unless the bot would go over a limit (in a transaction). */
  insert(source: SourceRecord, limits: KnowledgeLimits): Promise<LimitHit>;
  /** A replacement's new generation, or null when the source is gone; `hit` when over a limit. */
  restart(
    botId: string,
    id: string,
    change: { name: string; kind: SourceKind; url: string | null; bytes: number; now: number },
    limits: KnowledgeLimits,
  ): Promise<{ hit: LimitHit; generation: number } | null>;
  /** false when `generation` is no longer the source's (a newer content won) */
  swapIn(id: string, generation: number, passages: NewPassage[], language: string, now: number): Promise<boolean>;
  fail(id: string, generation: number, error: string, now: number): Promise<void>;
  get(botId: string, id: string): Promise<SourceRecord | null>;
  list(botId: string): Promise<SourceRecord[]>;
  passagePage(sourceId: string, generation: number, position: number, limit: number): Promise<Array<StoredPassage & { position: number }>>;
  remove(botId: string, id: string): Promise<boolean>;
  usage(botId: string, exceptId: string): Promise<{ sources: number; bytes: number }>;
  passageCount(botId: string, exceptSourceId: string): Promise<number>;
  candidates(botId: string, terms: readonly string[], language: string, cap: number): Promise<Candidates>;
}

/** Passage vectors of an embedding model (hybrid search, the embedder). */
export interface VectorRepository {
  missing(botId: string, model: string, limit: number, afterId?: number): Promise<PassageToEmbed[]>;
  put(botId: string, model: string, vectors: Array<{ chunkId: number; vector: Buffer }>): Promise<void>;
  stamp(botId: string, model: string): Promise<VectorStamp>;
  vectors(botId: string, model: string): Promise<StoredVector[]>;
  embeddedPerSource(botId: string, model: string): Promise<Map<string, number>>;
  passagesByIds(botId: string, ids: readonly number[]): Promise<FoundPassage[]>;
}

/** An FAQ source's pairs as written. */
export interface FaqPairRepository {
  replace(sourceId: string, pairs: readonly FaqPair[]): Promise<void>;
  page(sourceId: string, position: number, limit: number): Promise<Array<FaqPair & { position: number }>>;
}

/** The lease a node holds on a source it is indexing (indexing-lease.ts). */
export interface IndexingLeaseRepository {
  claim(id: string, generation: number, until: number): Promise<void>;
  failAbandoned(now: number, claimedBefore: number, changedBefore: number, error: string): Promise<number>;
}

/** What one write of a source's content runs in one transaction. */
export interface KnowledgeWrites {
  knowledge: SourceRepository;
  faqPairs: FaqPairRepository;
  vectors: VectorRepository;
}

export interface KnowledgeStorage extends KnowledgeWrites {
  knowledgeLeases: IndexingLeaseRepository;
  /** runs `work` in one transaction: all its writes commit together, or none (it threw) */
  transaction<T>(work: (tx: KnowledgeWrites) => Promise<T>): Promise<T>;
}
