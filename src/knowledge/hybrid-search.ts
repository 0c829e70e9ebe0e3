// Search by words and by meaning together (knowledge.md "With an embedding model"). The words
// ranking (word-search.ts: every candidate with its 0..1 words score) and the nearest passage
// vectors (vector-index.ts, up to CANDIDATES above the model's minimum similarity) are fused into
// one 0..1 score per passage (ranking.ts fusedScore), so a passage both find comes first, and one
// only the vectors find ("can I travel with my cat" → "pets in the cabin") still comes. Vectors
// below the minimum similarity count nothing, so a question about nothing in the documents still
// finds nothing. Without a model, or when the provider does not
// answer the question's embedding within QUERY_TIMEOUT_MS, the search is the text ranking alone:
// a search never fails because of the provider.
import type { EmbeddingAccess } from '../integrations/embeddings-client.js';
import { minSimilarityFor } from '../understanding/builtin-model/provider.js';
import type { Embedder } from './embedder.js';
import type { FoundPassage } from './model.js';
import type { VectorIndex } from './vector-index.js';
import { fusedScore } from './ranking.js';
import { WORD_CANDIDATES } from './word-search.js';

/** countTokens: the asking bot's account pays for the question's embedding (AiTokens). */
export interface HybridDeps extends EmbeddingAccess {
  textSearch(ownerId: string, terms: readonly string[], language: string, limit: number): Promise<FoundPassage[]>;
  passagesByIds(ownerId: string, ids: readonly number[]): Promise<FoundPassage[]>;
  index: Pick<VectorIndex, 'nearest'>;
  embedder: Pick<Embedder, 'check'>;
}

export interface SearchQuestion {
  /** the bot that asks (usage) */
  botId: string;
  /** whose passages are searched: the bot, or a referenced clone's master */
  ownerId: string;
  text: string;
  terms: readonly string[];
  language: string;
  limit: number;
}

/** How many passages the vectors contribute before fusion (the words give all their candidates). */
export const CANDIDATES = 50;
/** A question's embedding is one short input: a provider slower than this is skipped for that search. */
export const QUERY_TIMEOUT_MS = 3_000;

export class HybridSearch {
  constructor(private readonly deps: HybridDeps) {}

  async find(q: SearchQuestion): Promise<FoundPassage[]> {
    const provider = await this.deps.provider(q.ownerId);
    if (provider === null) return this.deps.textSearch(q.ownerId, q.terms, q.language, q.limit);
    this.deps.embedder.check(q.ownerId);
    const [byWords, query] = await Promise.all([
      this.deps.textSearch(q.ownerId, q.terms, q.language, Math.max(q.limit, WORD_CANDIDATES)),
      this.deps.embed(provider, [q.text], { timeoutMs: QUERY_TIMEOUT_MS, allowPrivateNetwork: this.deps.allowPrivateNetwork }),
    ]);
    if (query.tokens > 0) await this.deps.countTokens(q.botId, query.tokens).catch(() => undefined);
    if (query.status !== 'OK') return byWords.slice(0, q.limit);
    const byMeaning = await this.deps.index.nearest(q.ownerId, provider.model, query.vectors[0], CANDIDATES, this.deps.minSimilarity);
    if (byMeaning.length === 0) return byWords.slice(0, q.limit);
    const fused = fuse(byWords, byMeaning, minSimilarityFor(provider.model, this.deps.minSimilarity)).slice(0, q.limit);
    const known = new Map(byWords.map((p) => [p.chunkId, p]));
    const others = await this.deps.passagesByIds(
      q.ownerId,
      fused.filter((f) => !known.has(f.id)).map((f) => f.id),
    );
    for (const p of others) known.set(p.chunkId, p);
    // a passage gone since the vectors were read (a source deleted or replaced) is left out
    return fused.filter((f) => known.has(f.id)).map((f) => ({ ...known.get(f.id)!, score: f.score }));
  }
}

/** Words scores and nearest vectors in one 0..1 score per passage: best first, ties by id. */
export function fuse(
  byWords: ReadonlyArray<{ chunkId: number; score: number }>,
  byMeaning: ReadonlyArray<{ chunkId: number; similarity: number }>,
  minSimilarity: number,
): Array<{ id: number; score: number }> {
  const words = new Map(byWords.map((p) => [p.chunkId, p.score]));
  const meaning = new Map(byMeaning.map((n) => [n.chunkId, n.similarity]));
  return [...new Set([...words.keys(), ...meaning.keys()])]
    .map((id) => ({ id, score: fusedScore(words.get(id) ?? 0, meaning.get(id) ?? null, minSimilarity) }))
    .filter((f) => f.score > 0)
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
