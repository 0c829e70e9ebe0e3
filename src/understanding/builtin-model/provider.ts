// The built-in model as an embedding "provider" (knowledge.md "The built-in model"): a bot with no
// provider embedding model gets BUILTIN_PROVIDER, and the one `embed` the server wires for
// knowledge and intents (wiring.ts) sends it to the thread pool instead of over HTTP. Everything
// else (stored vectors per model name, hybrid search, intents' second opinion) is the same path a
// provider's model takes.
import { embedTexts, type EmbeddingProvider, type EmbedOptions, type EmbedResult } from '../../integrations/embeddings-client.js';
import type { BuiltinModel } from './pool.js';

/** The model name vectors are stored under and GET /ai shows (`EmbeddingModel: "builtin"`). */
export const BUILTIN_MODEL_NAME = 'builtin';

export const BUILTIN_PROVIDER: EmbeddingProvider = Object.freeze({ baseUrl: 'builtin', model: BUILTIN_MODEL_NAME, apiKey: '', guarded: false });

/**
 * The lowest cosine of the built-in model that counts as a match. Universal Sentence Encoder's
 * cosines run higher than OpenAI's for unrelated texts, so it has its own minimum, chosen on the
 * development sets (docs/decisions.md "The built-in model"); COLLOQUY_AI_EMBEDDING_MIN_SIMILARITY
 * is a provider's.
 */
export const BUILTIN_MIN_SIMILARITY = 0.35;

export const isBuiltin = (provider: EmbeddingProvider): boolean => provider.baseUrl === BUILTIN_PROVIDER.baseUrl && provider.model === BUILTIN_MODEL_NAME;

/** The server's one `embed`: the built-in model in its threads, any other over HTTP; never throws. */
export function embedWith(builtin: BuiltinModel | null): (provider: EmbeddingProvider, texts: readonly string[], options: EmbedOptions) => Promise<EmbedResult> {
  return (provider, texts, options) => {
    if (!isBuiltin(provider)) return embedTexts(provider, texts, options);
    if (builtin === null) return Promise.resolve({ status: 'ERROR', vectors: [], tokens: 0 });
    return builtin.embed(texts, options);
  };
}

/** The minimum similarity for a model name: the built-in model's own, else the configured one. */
export const minSimilarityFor = (model: string, configured: number): number => (model === BUILTIN_MODEL_NAME ? BUILTIN_MIN_SIMILARITY : configured);
