// A bot's knowledge sources (knowledge.md "Sources"): add, replace, list, read, delete, search.
// A document is cut into passages on the indexing thread (indexer.ts); a source up to 1 MiB is
// cut before anything is written, so a bad one changes nothing and a good one is `ready` in the
// 201; a larger one is written `indexing` and swapped in whole when its passages are ready. Limits
// are checked in the transaction that adds (store/knowledge.ts). A referenced clone reads and
// searches its master's sources and may not change them.
import crypto from 'node:crypto';
import type { BotRecord } from '../bots/model.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { KnowledgeStorage } from './port.js';
import type { HybridSearch } from './hybrid-search.js';
import type { Indexer } from './indexer.js';
import type { FoundPassage, KnowledgeLimits, SourceKind, SourceRecord } from './model.js';
import { checkOneDocument, documentOf, fileDocument, MAX_SOURCE_BYTES, tooLarge, type SourceBody, type SourceDocument } from './documents.js';
import { UrlFetchSlots } from './url-fetch-slots.js';
import { checkedUrl, fetchPage } from './url-source.js';
import type { Passage } from './passages.js';
import { DocumentError, type ReadableInput } from './reading.js';
import { searchTerms } from './terms.js';
import { searchByWords } from './word-search.js';
import { checkBotPassages, documentRefusal, heldPlace } from './amplification.js';
import { sourceJson } from './source-text.js';
import { KNOWLEDGE_LIMITS, overLimit, refuseOver } from './bot-limits.js';

export interface SourceView {
  SourceId: string;
  Name: string;
  Kind: SourceKind;
  Url: string | null;
  Status: SourceRecord['status'];
  Chunks: number;
  Bytes: number;
  UpdatedAt: string;
  Error: string | null;
  /** passages with a vector of the bot's current embedding model (0 without one; hybrid-search.ts) */
  Embedded: number;
}

export interface KnowledgeDeps {
  store: KnowledgeStorage;
  clock: Clock;
  indexer: Indexer;
  /** the language passages are stemmed in: the bot's live nlp.language (default en) */
  languageOf(bot: BotRecord): Promise<string>;
  /** COLLOQUY_ALLOW_PRIVATE_NETWORK: a Url source may name a private address (tests, intranets) */
  allowPrivateNetwork: boolean;
  /** with an embedding model: searches by words and meaning (hybrid-search.ts), passages embedded after indexing (embedder.ts) */
  embeddings?: KnowledgeEmbeddings;
  /** a background indexing that failed unexpectedly (the source is marked failed; the log says why) */
  onError?(error: unknown): void;
  /** holds a background indexing's lease while it runs (indexing-lease.ts) */
  leases?: { hold(id: string, generation: number): () => void };
}

/** Whose sources a bot answers from: a referenced clone its master's (knowledge.md). */
export const knowledgeOwner = (bot: BotRecord): string => (bot.role === 'clone' && bot.masterBotId !== null ? bot.masterBotId : bot.id);

export type { SourceBody };

export interface KnowledgeEmbeddings {
  search: HybridSearch;
  /** queues a bot whose passages changed */
  queue(botId: string): void;
  /** passages per source with a vector of the bot's current model (empty without a model) */
  embedded(botId: string): Promise<Map<string, number>>;
}

export class KnowledgeService {
  private readonly limits: KnowledgeLimits = { sources: KNOWLEDGE_LIMITS.sources, bytes: KNOWLEDGE_LIMITS.botBytes };
  /** background indexings still running (tests and shutdown wait for them) */
  private readonly pending = new Set<Promise<void>>();
  private readonly urlSlots = new UrlFetchSlots();

  constructor(private readonly deps: KnowledgeDeps) {}

  async add(bot: BotRecord, body: SourceBody): Promise<SourceView> {
    this.refuseClone(bot);
    const document = await this.documentOf(bot, body, null);
    const now = this.deps.clock.now();
    const source: SourceRecord = {
      id: crypto.randomUUID(),
      botId: bot.id,
      name: document.name,
      kind: document.kind,
      url: document.url,
      status: 'indexing',
      error: null,
      chunks: 0,
      bytes: document.bytes,
      generation: 0,
      createdAt: now,
      updatedAt: now,
    };
    if (document.bytes <= KNOWLEDGE_LIMITS.inlineBytes) {
      const passages = await this.cut(document.input);
      const language = await this.deps.languageOf(bot);
      await this.deps.store.transaction(async (tx) => {
        refuseOver(await tx.knowledge.insert(source, this.limits));
        await checkBotPassages(tx.knowledge, bot.id, source.id, passages.length);
        await tx.knowledge.swapIn(source.id, 0, passages, language, now);
        await tx.faqPairs.replace(source.id, document.faq ?? []);
      });
      this.deps.embeddings?.queue(bot.id);
    } else {
      // the queue's place is taken before the row is written: a full queue saves nothing (issue 35)
      const place = this.deps.indexer.reserve();
      await heldPlace(place, () =>
        this.deps.store.transaction(async (tx) => {
          refuseOver(await tx.knowledge.insert(source, this.limits));
          await tx.faqPairs.replace(source.id, document.faq ?? []);
        }),
      );
      this.inBackground(bot, source.id, 0, document.input, place);
    }
    return this.view(await this.mustGet(bot.id, source.id));
  }

  async replace(bot: BotRecord, id: string, body: SourceBody): Promise<SourceView> {
    this.refuseClone(bot);
    const document = await this.documentOf(bot, body, id);
    const change = { name: document.name, kind: document.kind, url: document.url, bytes: document.bytes, now: this.deps.clock.now() };
    if (document.bytes <= KNOWLEDGE_LIMITS.inlineBytes) {
      const passages = await this.cut(document.input);
      const language = await this.deps.languageOf(bot);
      await this.deps.store.transaction(async (tx) => {
        const restarted = await tx.knowledge.restart(bot.id, id, change, this.limits);
        if (restarted === null) throw new AppError('SOURCE_NOT_FOUND');
        refuseOver(restarted.hit);
        await checkBotPassages(tx.knowledge, bot.id, id, passages.length);
        await tx.knowledge.swapIn(id, restarted.generation, passages, language, change.now);
        await tx.faqPairs.replace(id, document.faq ?? []);
      });
      this.deps.embeddings?.queue(bot.id);
    } else {
      const place = this.deps.indexer.reserve();
      const restarted = await heldPlace(place, async () => {
        return this.deps.store.transaction(async (tx) => {
          const restarted = await tx.knowledge.restart(bot.id, id, change, this.limits);
          if (restarted === null) throw new AppError('SOURCE_NOT_FOUND');
          refuseOver(restarted.hit);
          await tx.faqPairs.replace(id, document.faq ?? []);
          return restarted;
        });
      });
      this.inBackground(bot, id, restarted.generation, document.input, place);
    }
    return this.view(await this.mustGet(bot.id, id));
  }

  async list(bot: BotRecord): Promise<{ Result: SourceView[] }> {
    const embedded = await this.embeddedOf(bot);
    return { Result: (await this.deps.store.knowledge.list(knowledgeOwner(bot))).map((s) => this.view(s, embedded)) };
  }

  /** The source, an FAQ's pairs and its passages in document order, as JSON pieces to stream (source-text.ts). */
  async get(bot: BotRecord, id: string): Promise<AsyncGenerator<string>> {
    const source = await this.mustGet(knowledgeOwner(bot), id);
    const view = this.view(source, await this.embeddedOf(bot));
    const pairs = source.kind === 'faq' ? (after: number, limit: number) => this.deps.store.faqPairs.page(source.id, after, limit) : null;
    return sourceJson(view, (after, limit) => this.deps.store.knowledge.passagePage(source.id, source.generation, after, limit), pairs);
  }

  async remove(bot: BotRecord, id: string): Promise<void> {
    this.refuseClone(bot);
    if (!(await this.deps.store.knowledge.remove(bot.id, id))) throw new AppError('SOURCE_NOT_FOUND');
  }

  /** The passages that share a word (not a stop word) with `text`, or its meaning, best first, scored 0..1 (ranking.ts). */
  async find(bot: BotRecord, text: string, limit: number): Promise<FoundPassage[]> {
    const language = await this.deps.languageOf(bot);
    const terms = searchTerms(text, language);
    if (this.deps.embeddings) return this.deps.embeddings.search.find({ botId: bot.id, ownerId: knowledgeOwner(bot), text, terms, language, limit });
    return searchByWords((...a) => this.deps.store.knowledge.candidates(...a), knowledgeOwner(bot), terms, language, limit);
  }

  async search(bot: BotRecord, text: string, limit: number = KNOWLEDGE_LIMITS.searchDefault) {
    const found = await this.find(bot, text, Math.min(Math.max(1, limit), KNOWLEDGE_LIMITS.searchMax));
    return {
      Result: found.map((p) => ({ SourceId: p.sourceId, SourceName: p.sourceName, ChunkId: p.chunkId, Heading: p.heading, Text: p.text, Score: roundScore(p.score) })),
    };
  }

  /** Resolves when every background indexing started so far has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private view(source: SourceRecord, embedded?: Map<string, number>): SourceView {
    return {
      SourceId: source.id,
      Name: source.name,
      Kind: source.kind,
      Url: source.url,
      Status: source.status,
      Chunks: source.chunks,
      Bytes: source.bytes,
      UpdatedAt: this.deps.clock.iso(source.updatedAt),
      Error: source.error,
      Embedded: embedded?.get(source.id) ?? 0,
    };
  }

  private embeddedOf(bot: BotRecord): Promise<Map<string, number>> {
    return this.deps.embeddings?.embedded(knowledgeOwner(bot)) ?? Promise.resolve(new Map());
  }

  private async mustGet(botId: string, id: string): Promise<SourceRecord> {
    const source = await this.deps.store.knowledge.get(botId, id);
    if (source === null) throw new AppError('SOURCE_NOT_FOUND');
    return source;
  }

  private refuseClone(bot: BotRecord): void {
    if (knowledgeOwner(bot) !== bot.id) {
      throw new AppError('STATE_CONFLICT', "A referenced clone answers from its master's knowledge: change the master's sources.");
    }
  }

  /**
   * The body's document; a Url is fetched here, once, before anything is written: in one of the
   * node's and the bot's fetch slots (url-fetch-slots.ts), after the bot's limits are checked, and
   * only up to the room the bot has left (issue 35). The adding transaction checks them again.
   */
  private async documentOf(bot: BotRecord, body: SourceBody, replacing: string | null): Promise<SourceDocument> {
    checkOneDocument(body);
    if (body.Url === undefined) return documentOf(body);
    const url = checkedUrl(body.Url);
    return this.urlSlots.run(bot.id, async () => {
      if (replacing !== null) await this.mustGet(bot.id, replacing);
      const used = await this.deps.store.knowledge.usage(bot.id, replacing ?? '');
      if (replacing === null && used.sources + 1 > KNOWLEDGE_LIMITS.sources) throw overLimit('sources');
      const room = KNOWLEDGE_LIMITS.botBytes - used.bytes;
      if (room <= 0) throw overLimit('bytes');
      const page = await fetchPage(url, {
        allowPrivateNetwork: this.deps.allowPrivateNetwork,
        maxBytes: Math.min(MAX_SOURCE_BYTES, room),
        tooLarge: (declared) => (room >= MAX_SOURCE_BYTES || (declared ?? 0) > MAX_SOURCE_BYTES ? tooLarge() : overLimit('bytes')),
      });
      const name = body.Name?.trim() || page.url.slice(0, 200);
      return fileDocument(name, page.kind, page.data, page.url);
    });
  }

  private async cut(input: ReadableInput): Promise<Passage[]> {
    try {
      return await this.deps.indexer.passagesOf(input);
    } catch (error) {
      if (error instanceof DocumentError) throw documentRefusal(error);
      throw error;
    }
  }

  /** Cut on the thread, then swapped in whole; a failure marks the source failed with the reason. */
  private inBackground(bot: BotRecord, id: string, generation: number, input: ReadableInput, place: { passagesOf(input: ReadableInput): Promise<Passage[]> }): void {
    const { store, clock } = this.deps;
    const release = this.deps.leases?.hold(id, generation);
    const job = (async () => {
      try {
        const passages = await place.passagesOf(input);
        const language = await this.deps.languageOf(bot);
        await store.transaction(async (tx) => {
          await checkBotPassages(tx.knowledge, bot.id, id, passages.length);
          await tx.knowledge.swapIn(id, generation, passages, language, clock.now());
        });
        this.deps.embeddings?.queue(bot.id);
      } catch (error) {
        const reason = error instanceof DocumentError ? error.message : error instanceof AppError ? error.message : 'indexing failed on the server; send the source again';
        if (!(error instanceof DocumentError)) this.deps.onError?.(error);
        await store.knowledge.fail(id, generation, reason, clock.now()).catch((e) => this.deps.onError?.(e));
      }
    })();
    this.pending.add(job);
    void job.finally(() => {
      release?.();
      this.pending.delete(job);
    });
  }
}

/** A score as the API shows it: six decimals. */
export const roundScore = (score: number): number => Math.round(score * 1e6) / 1e6;
