// Intents by meaning too, when the bot has an embedding model (understanding.md, knowledge.md;
// issue 22 "use it for intents too"). nlp.js answers first, as always; then the text is embedded
// (one short call, UTTERANCE_TIMEOUT_MS) and compared with the vectors of the version's examples
// and of the language's out-of-scope examples (the same ones nlp.js learns "None" from), and the
// two opinions decide together (meaning-scores.ts). Every text is embedded, the ones nlp.js is
// sure of too: nlp.js is sure of some texts about something else entirely (docs/decisions.md
// "Intents by meaning"). A provider that fails or is slow leaves nlp.js's answer: a turn never
// fails or waits long because of it.
// The examples are embedded once per version and model, off the turn (the first turn that needs
// them queues the work and goes on with nlp.js's answer), and stored (intent_vectors) so that
// every node and restart has them.
import type { CompiledNlp } from '../engine/nlp/compiled-nlp.js';
import type { ClassifyAnswer } from '../engine/types.js';
import { vectorBytes, vectorFromBytes, type EmbeddingAccess, type EmbeddingProvider } from '../integrations/embeddings-client.js';
import type { Clock } from '../shared/clock.js';
import type { IntentVectorStorage } from './port.js';
import type { NlpLanguage } from './languages.js';
import { minSimilarityFor } from './builtin-model/provider.js';
import { byMeaning, classSimilarities, OUT_OF_SCOPE_LABEL } from './meaning-scores.js';
import { OUT_OF_SCOPE_EXAMPLES } from './model.js';

/** Only the bot's id is read here: understanding/ sits below bots/, which runs it (issue 38). */
type IntentBot = { id: string };

export interface IntentEmbeddingDeps extends EmbeddingAccess {
  /** where a version's example vectors are kept, per model */
  store: IntentVectorStorage;
  clock: Clock;
}

export interface Classifier {
  classify(text: string): Promise<ClassifyAnswer>;
}

/** A turn waits at most this long for the text's vector; then nlp.js's answer stands. */
export const UTTERANCE_TIMEOUT_MS = 1_500;
/** Embedding a version's examples (off the turn): each batch at most this long. */
const EXAMPLES_TIMEOUT_MS = 60_000;
/** After a failure to embed a version's examples, the next try waits this long. */
const RETRY_MS = 60_000;
/**
 * Every text asks whether the bot has an embedding model, which is a store read: a node remembers
 * the answer this long (a change made on this node is seen at once: forgetProvider).
 */
export const PROVIDER_TTL_MS = 2_000;
/** Bots whose answer a node remembers. */
const PROVIDERS_KEPT = 10_000;
/** Versions whose vectors a node keeps loaded. */
const LOADED = 64;

interface Examples {
  labels: string[];
  vectors: Float32Array[];
}

export class IntentEmbeddings {
  private readonly loaded = new Map<string, Examples>();
  private readonly preparing = new Map<string, Promise<void>>();
  private readonly failedAt = new Map<string, number>();
  private readonly providers = new Map<string, { provider: EmbeddingProvider | null; until: number }>();

  constructor(private readonly deps: IntentEmbeddingDeps) {}

  /** nlp.js's classifier with the embedding model as second opinion (itself when there is no version: a draft). */
  classifierFor(bot: IntentBot, versionId: number | null, nlp: CompiledNlp | null, base: Classifier | null): Classifier | null {
    if (base === null || nlp === null || versionId === null) return base;
    return { classify: async (text) => this.refine(bot, versionId, nlp, text, await base.classify(text)) };
  }

  /** Never throws: anything that goes wrong leaves nlp.js's answer. */
  async refine(bot: IntentBot, versionId: number, nlp: CompiledNlp, text: string, answer: ClassifyAnswer): Promise<ClassifyAnswer> {
    if (text.trim() === '') return answer;
    try {
      const provider = await this.providerOf(bot.id);
      if (provider === null) return answer;
      const examples = await this.examples(bot, versionId, nlp, provider);
      if (examples === null) return answer;
      const query = await this.deps.embed(provider, [text], { timeoutMs: UTTERANCE_TIMEOUT_MS, allowPrivateNetwork: this.deps.allowPrivateNetwork });
      const tokens = query.tokens;
      if (query.status !== 'OK') return { ...answer, tokens };
      const similarities = classSimilarities(examples.labels, examples.vectors, query.vectors[0]);
      // vectors of another length (the model behind the name changed): nothing to compare with
      if (similarities.size === 0) return { ...answer, tokens };
      return { intents: byMeaning(answer, similarities, minSimilarityFor(provider.model, this.deps.minSimilarity)), tokens };
    } catch (error) {
      this.deps.onError?.(error);
      return answer;
    }
  }

  /** The bot's settings changed on this node: the next text reads them again. */
  forgetProvider(botId: string): void {
    this.providers.delete(botId);
  }

  private async providerOf(botId: string): Promise<EmbeddingProvider | null> {
    const now = this.deps.clock.now();
    const known = this.providers.get(botId);
    if (known !== undefined && known.until > now) return known.provider;
    const provider = await this.deps.provider(botId);
    this.providers.delete(botId);
    this.providers.set(botId, { provider, until: now + PROVIDER_TTL_MS });
    while (this.providers.size > PROVIDERS_KEPT) this.providers.delete(this.providers.keys().next().value!);
    return provider;
  }

  /** The version's example vectors for the provider's model, or null (then queued, off the turn). */
  private async examples(bot: IntentBot, versionId: number, nlp: CompiledNlp, provider: EmbeddingProvider): Promise<Examples | null> {
    const key = `${versionId}\u0000${provider.model}`;
    const known = this.loaded.get(key);
    if (known !== undefined) return known;
    const stored = await this.deps.store.vectors.intentVectors(versionId, provider.model);
    if (stored !== null) {
      const examples = fromStored(stored.labels, stored.vectors);
      this.loaded.set(key, examples);
      while (this.loaded.size > LOADED) this.loaded.delete(this.loaded.keys().next().value!);
      return examples;
    }
    const failed = this.failedAt.get(key);
    if (!this.preparing.has(key) && (failed === undefined || this.deps.clock.now() - failed >= RETRY_MS)) {
      const job = this.prepare(bot, versionId, nlp, provider, key).finally(() => this.preparing.delete(key));
      this.preparing.set(key, job);
    }
    return null;
  }

  /** Embeds and stores a version's examples for a model (resolves when done; failures are remembered, not thrown). */
  async prepare(bot: IntentBot, versionId: number, nlp: CompiledNlp, provider: EmbeddingProvider, key = `${versionId}\u0000${provider.model}`): Promise<void> {
    const labels: string[] = [];
    const texts: string[] = [];
    for (const intent of nlp.intents) for (const example of intent.examples) labels.push(intent.name), texts.push(example);
    for (const example of OUT_OF_SCOPE_EXAMPLES[nlp.language as NlpLanguage] ?? OUT_OF_SCOPE_EXAMPLES.en) labels.push(OUT_OF_SCOPE_LABEL), texts.push(example);
    try {
      const result = await this.deps.embed(provider, texts, { timeoutMs: EXAMPLES_TIMEOUT_MS, allowPrivateNetwork: this.deps.allowPrivateNetwork });
      if (result.tokens > 0) await this.deps.countTokens(bot.id, result.tokens);
      if (result.status !== 'OK') {
        this.failedAt.set(key, this.deps.clock.now());
        return;
      }
      const all = Buffer.concat(result.vectors.map(vectorBytes));
      await this.deps.store.vectors.putIntentVectors(versionId, provider.model, labels, all, this.deps.clock.now());
      this.failedAt.delete(key);
    } catch (error) {
      this.failedAt.set(key, this.deps.clock.now());
      this.deps.onError?.(error);
    }
  }

  /** Resolves when every example embedding started so far has ended (tests). */
  async settled(): Promise<void> {
    while (this.preparing.size > 0) await Promise.allSettled([...this.preparing.values()]);
  }
}

function fromStored(labels: string[], bytes: Uint8Array): Examples {
  const all = vectorFromBytes(bytes);
  const dims = labels.length === 0 ? 0 : Math.floor(all.length / labels.length);
  return { labels, vectors: labels.map((_, i) => all.subarray(i * dims, (i + 1) * dims)) };
}
