// Passage vectors, computed after indexing (knowledge.md "With an embedding model"). When a
// source's passages are swapped in, or a bot's embedding model changes, the bot is queued here;
// one bot at a time per node, EMBED_BATCH passages per provider call, each batch written in its
// own transaction. The search never waits for this: a passage with no vector of the current model
// yet is found by its words, as before any model existed. A failed call stops the bot's run (the
// passages keep their words; the next change or search after RETRY_MS queues it again), never
// the indexing itself. Two nodes embedding the same bot write the same vectors (upserts).
import type { Clock } from '../shared/clock.js';
import { EMBED_BATCH, vectorBytes, type EmbeddingAccess } from '../integrations/embeddings-client.js';
import type { KnowledgeStorage } from './port.js';

export interface EmbedderDeps extends Omit<EmbeddingAccess, 'minSimilarity'> {
  store: Pick<KnowledgeStorage, 'vectors' | 'transaction'>;
  clock: Clock;
}

/** One batch may take this long (a local model on a CPU is slow; nothing waits for it). */
const BATCH_TIMEOUT_MS = 60_000;
/** After a failure, a search does not queue the bot again before this. */
const RETRY_MS = 60_000;
/** A search checks at most this often whether a bot has passages left to embed (a model set on the server, a full clone). */
const CHECK_MS = 5 * 60_000;

/** What a passage is embedded as: its heading gives the text its subject. */
export const passageInput = (p: { heading: string; text: string }): string => (p.heading === '' ? p.text : `${p.heading}\n\n${p.text}`);

export class Embedder {
  private readonly queued = new Set<string>();
  private readonly lastCheck = new Map<string, number>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: EmbedderDeps) {}

  /** Queues the bot now (its passages or its model changed). */
  queue(botId: string): void {
    if (this.stopped) return;
    this.lastCheck.set(botId, this.deps.clock.now());
    this.queued.add(botId);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Queues the bot unless it was checked recently (called by searches: cheap when nothing is left). */
  check(botId: string): void {
    const last = this.lastCheck.get(botId);
    if (last !== undefined && this.deps.clock.now() - last < CHECK_MS) return;
    // bounded: one entry per bot that searched, dropped when the map grows past a few thousand
    if (this.lastCheck.size > 10_000) this.lastCheck.clear();
    this.queue(botId);
  }

  /** Resolves when nothing is queued or running (tests, benchmarks, shutdown). */
  async settled(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** Shutdown: nothing more is started; the batch under way ends (within its timeout) first. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queued.clear();
    await this.settled();
  }

  private async drain(): Promise<void> {
    while (this.queued.size > 0) {
      const botId = this.queued.values().next().value!;
      this.queued.delete(botId);
      try {
        await this.embedBot(botId);
      } catch (error) {
        this.deps.onError?.(error);
      }
    }
  }

  private async embedBot(botId: string): Promise<void> {
    const provider = await this.deps.provider(botId);
    if (provider === null) return;
    // passage ids only grow: one walk in id order sees every passage that lacks a vector, new ones included
    let after = 0;
    while (!this.stopped) {
      const missing = await this.deps.store.vectors.missing(botId, provider.model, EMBED_BATCH, after);
      if (missing.length === 0) return;
      after = missing[missing.length - 1].chunkId;
      const result = await this.deps.embed(provider, missing.map(passageInput), { timeoutMs: BATCH_TIMEOUT_MS, allowPrivateNetwork: this.deps.allowPrivateNetwork });
      if (result.tokens > 0) await this.deps.countTokens(botId, result.tokens);
      if (result.status !== 'OK') {
        // searched by words until then; a search may queue it again after RETRY_MS
        this.lastCheck.set(botId, this.deps.clock.now() - CHECK_MS + RETRY_MS);
        return;
      }
      const rows = missing.map((p, i) => ({ chunkId: p.chunkId, vector: vectorBytes(result.vectors[i]) }));
      await this.deps.store.transaction((tx) => tx.vectors.put(botId, provider.model, rows));
    }
  }
}
