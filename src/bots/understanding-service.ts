// The designer's side of understanding.md: trying the model on a text (parse), the texts the bot
// missed, and the bot's own AI provider (PUT/GET/DELETE /bots/{APIKey}/ai). The provider's key is
// encrypted at rest (store/understanding.ts), never returned, and lives outside bot files and
// versions, so no export, backup or clone carries it.
import { compileBot, type CompiledBot } from '../engine/compile.js';
import { findEntities } from '../engine/nlp/entities.js';
import type { AiProvider } from '../integrations/ai-client.js';
import type { EmbeddingProvider } from '../integrations/embeddings-client.js';
import type { Config } from '../config.js';
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { UnderstandingStorage } from './port.js';
import { BUILTIN_PROVIDER } from '../understanding/builtin-model/provider.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import { attachModel, classifierOf } from './live-models.js';
import type { LiveBots } from './live.js';
import type { BotRecord } from './model.js';

export interface ParseResult {
  Intent: string | null;
  Score: number;
  Alternatives: Array<{ Intent: string; Score: number }>;
  Entities: Array<{ Name: string; Value: string; Text: string }>;
}

export interface AiSettingsView {
  BaseUrl: string | null;
  Model: string | null;
  /** whether AI steps of this bot have a provider (its own, or the server's) */
  Configured: boolean;
  /** "bot" (its own), "server" (COLLOQUY_AI_*), or null */
  Source: 'bot' | 'server' | null;
  /** the embedding model searches and intents use (the bot's own, else the server's), or null */
  EmbeddingModel: string | null;
}

export const MISSED_DEFAULT_LIMIT = 100;
export const MISSED_MAX_LIMIT = 1000;
const ALTERNATIVES = 5;
const round = (score: number): number => Math.round(score * 10_000) / 10_000;

export class UnderstandingService {
  /** compiled older versions asked for by parse, by version id (a few: designers compare two or three) */
  private readonly versions = new Map<number, CompiledBot>();

  constructor(
    private readonly store: UnderstandingStorage,
    private readonly clock: Clock,
    private readonly config: Pick<Config, 'ai' | 'builtinModel'>,
    private readonly live: Pick<LiveBots, 'get'>,
    /** the bot's provider changed (PUT or DELETE /ai): its passages may need vectors of another model */
    private readonly onProviderChange?: (botId: string) => void,
  ) {}

  /** What the model of a version (default the live one) makes of a text; no AI fallback (no cost). */
  async parse(bot: BotRecord, text: string, version?: number): Promise<ParseResult> {
    const compiled = version === undefined ? await this.live.get(bot) : await this.compiledVersion(bot, version);
    const nlp = compiled.nlp;
    if (nlp === null) return { Intent: null, Score: 0, Alternatives: [], Entities: [] };
    const scores = (await classifierOf(compiled)?.classify(text))?.intents ?? [];
    const best = scores[0];
    return {
      Intent: best !== undefined && best.score >= nlp.threshold ? best.intent : null,
      Score: best === undefined ? 0 : round(best.score),
      Alternatives: scores.slice(0, ALTERNATIVES).map((s) => ({ Intent: s.intent, Score: round(s.score) })),
      Entities: findEntities(nlp, text).map((e) => ({ Name: e.name, Value: e.value, Text: e.text })),
    };
  }

  private async compiledVersion(bot: BotRecord, number: number): Promise<CompiledBot> {
    const version = await this.store.bots.versionByNumber(bot.id, number);
    if (!version) throw new AppError('VERSION_NOT_FOUND');
    const cached = this.versions.get(version.id);
    if (cached) return cached;
    const compiled = compileBot({ format: BOT_FORMAT, name: bot.name, settings: bot.settings, ...version.content });
    await attachModel(this.store, compiled, version.id, version.content);
    this.versions.set(version.id, compiled);
    while (this.versions.size > 8) this.versions.delete(this.versions.keys().next().value!);
    return compiled;
  }

  async missed(bot: BotRecord, limit: number = MISSED_DEFAULT_LIMIT) {
    const groups = await this.store.missedTexts.grouped(bot.id, Math.min(Math.max(limit, 1), MISSED_MAX_LIMIT));
    return {
      Result: groups.map((g) => ({ Text: g.key, Count: g.count, LastAt: this.clock.iso(g.lastAt), Behaviour: g.behaviour, Interaction: g.interaction })),
    };
  }

  async aiSettings(bot: BotRecord): Promise<AiSettingsView> {
    const own = await this.store.aiSettings.get(bot.id);
    const embedding = (await this.embeddingProviderFor(bot.id))?.model ?? null;
    if (own) return { BaseUrl: own.baseUrl, Model: own.model, Configured: true, Source: 'bot', EmbeddingModel: embedding };
    return { BaseUrl: null, Model: null, Configured: this.config.ai !== null, Source: this.config.ai !== null ? 'server' : null, EmbeddingModel: embedding };
  }

  /**
   * Takes effect at once (no publish). An absent ApiKey keeps the stored one only while BaseUrl
   * stays the same: the key goes nowhere it was not given for (issue 22; decisions.md).
   */
  async putAiSettings(bot: BotRecord, body: { BaseUrl: string; Model: string; ApiKey?: string; EmbeddingModel?: string }): Promise<AiSettingsView> {
    const baseUrl = body.BaseUrl.trim();
    if (!isHttpUrl(baseUrl)) throw new AppError('INVALID_REQUEST', 'BaseUrl must be an absolute http:// or https:// URL.', { Field: 'BaseUrl' });
    const model = body.Model.trim();
    if (model === '') throw new AppError('MISSING_FIELD', 'Model is required.', { Field: 'Model' });
    const apiKey = body.ApiKey ?? keptKey(await this.store.aiSettings.get(bot.id), baseUrl);
    // '' (or absent) is no embedding model of its own: the server's, if any, is used
    const embeddingModel = body.EmbeddingModel?.trim() || null;
    await this.store.aiSettings.put({ botId: bot.id, baseUrl, model, apiKey, embeddingModel, updatedAt: this.clock.now() });
    this.onProviderChange?.(bot.id);
    return this.aiSettings(bot);
  }

  async deleteAiSettings(bot: BotRecord): Promise<AiSettingsView & { Deleted: boolean }> {
    const deleted = await this.store.aiSettings.remove(bot.id);
    if (deleted) this.onProviderChange?.(bot.id);
    return { ...(await this.aiSettings(bot)), Deleted: deleted };
  }

  /** Read on every AI call, so a change takes effect at once on every node. */
  async providerFor(bot: BotRecord): Promise<AiProvider | null> {
    const own = await this.store.aiSettings.get(bot.id);
    if (own) return { baseUrl: own.baseUrl, model: own.model, apiKey: own.apiKey, guarded: true };
    const server = this.config.ai;
    return server === null ? null : { baseUrl: server.baseUrl, model: server.model, apiKey: server.apiKey, guarded: false };
  }

  /**
   * The embedding model a bot's knowledge and intents use: its own (on its own URL and key), else
   * the server's COLLOQUY_AI_EMBEDDING_MODEL (on the server's URL and key), else the built-in model
   * unless the server (COLLOQUY_BUILTIN_MODEL=off) or the bot (settings.understanding.embeddingModel
   * "none") turned it off, else none. Read on
   * every use, like providerFor; takes the bot's id because a referenced clone searches with its
   * master's (the vectors are the master's).
   */
  async embeddingProviderFor(botId: string): Promise<EmbeddingProvider | null> {
    const own = await this.store.aiSettings.get(botId);
    if (own?.embeddingModel) return { baseUrl: own.baseUrl, model: own.embeddingModel, apiKey: own.apiKey, guarded: true };
    const server = this.config.ai;
    if (server?.embeddingModel) return { baseUrl: server.baseUrl, model: server.embeddingModel, apiKey: server.apiKey, guarded: false };
    if (this.config.builtinModel?.enabled !== true) return null;
    const bot = await this.store.bots.byId(botId);
    return bot === null || bot.settings.understanding?.embeddingModel === 'none' ? null : BUILTIN_PROVIDER;
  }
}

/**
 * The stored key a PUT without ApiKey may keep: only for the very URL it was stored with. Any other
 * URL would receive it on the next call, so whoever holds an account token could read the key by
 * pointing the bot at a server of their own. A race with another PUT keeps a (URL, key) pair that
 * was stored together, never a new mix.
 */
function keptKey(stored: { baseUrl: string; apiKey: string } | null, baseUrl: string): string {
  if (stored === null || stored.apiKey === '') return '';
  if (sameUrl(stored.baseUrl, baseUrl)) return stored.apiKey;
  throw new AppError('MISSING_FIELD', 'ApiKey is required when BaseUrl changes: the stored key is only ever sent to the URL it was given for.', { Field: 'ApiKey' });
}

/** Equal once parsed (`HTTPS://Host:443/v1` is `https://host/v1`); anything else is a change. */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
