// The knowledge side of an embedding model, put together once per server (main.ts): the queue that
// embeds passages after indexing, the node's vector copies and the hybrid search over them.
import type { Clock } from '../shared/clock.js';
import type { EmbeddingAccess } from '../integrations/embeddings-client.js';
import type { KnowledgeStorage } from './port.js';
import { Embedder } from './embedder.js';
import { HybridSearch } from './hybrid-search.js';
import type { KnowledgeEmbeddings } from './service.js';
import { VectorIndex } from './vector-index.js';
import { minSimilarityFor } from '../understanding/builtin-model/provider.js';
import { searchByWords } from './word-search.js';

export interface KnowledgeEmbeddingDeps extends EmbeddingAccess {
  store: Pick<KnowledgeStorage, 'knowledge' | 'vectors' | 'transaction'>;
  clock: Clock;
  /** the node's vector copies, in bytes (vector-index.ts) */
  cacheBytes?: number;
}

export function knowledgeEmbeddings(deps: KnowledgeEmbeddingDeps): KnowledgeEmbeddings & { embedder: Embedder } {
  const { store } = deps;
  const embedder = new Embedder(deps);
  const index = new VectorIndex(store.vectors, deps.cacheBytes);
  const search = new HybridSearch({
    ...deps,
    textSearch: (ownerId, terms, language, limit) => searchByWords((...a) => store.knowledge.candidates(...a), ownerId, terms, language, limit),
    passagesByIds: (ownerId, ids) => store.vectors.passagesByIds(ownerId, ids),
    // the built-in model's cosines have a minimum of their own (builtin-model/provider.ts)
    index: { nearest: (ownerId, model, query, k, minSimilarity) => index.nearest(ownerId, model, query, k, minSimilarityFor(model, minSimilarity)) },
    embedder,
  });
  return {
    search,
    embedder,
    queue: (botId) => embedder.queue(botId),
    async embedded(botId) {
      const provider = await deps.provider(botId);
      return provider === null ? new Map() : store.vectors.embeddedPerSource(botId, provider.model);
    },
  };
}
