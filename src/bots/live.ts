// The live (published) version of each bot, compiled once and kept in memory. Conversations run
// the live content with the bot's current settings (settings take effect without a publish), so
// the cache key is the live version plus the bot's edit counter; any node notices a publish on
// its next request because the bot row it reads for authentication carries both.
import { compileBot, type CompiledBot } from '../engine/compile.js';
import { AppError } from '../shared/errors.js';
import type { BotRepository } from './port.js';
import type { BotFile } from '../engine/bot-file.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import type { BotRecord } from './model.js';
import { attachModel } from './live-models.js';

/**
 * Compiled bots kept at most. Entries were never removed (a deleted bot's stayed forever, and the
 * `forget` meant for that was never called), so the cache is bounded instead: the least recently
 * used bot is dropped and compiled again on its next request.
 */
export const MAX_LIVE_BOTS = 1000;

interface Entry {
  key: string;
  compiled: CompiledBot;
}

export class LiveBots {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: { bots: Pick<BotRepository, 'versionById' | 'nlpModel'> },
    private readonly capacity = MAX_LIVE_BOTS,
  ) {}

  /** how many compiled bots are held */
  get size(): number {
    return this.entries.size;
  }

  async get(bot: BotRecord): Promise<CompiledBot> {
    const key = `${bot.liveVersionId}:${bot.version}`;
    const cached = this.entries.get(bot.id);
    if (cached?.key === key) {
      // A Map iterates in insertion order: re-inserting makes it the most recently used.
      this.entries.delete(bot.id);
      this.entries.set(bot.id, cached);
      return cached.compiled;
    }
    if (bot.liveVersionId === null) throw new AppError('BOT_NOT_FOUND', 'This bot has no published version.');
    const version = await this.store.bots.versionById(bot.liveVersionId);
    if (!version) throw new AppError('BOT_NOT_FOUND', 'This bot has no published version.');
    const file: BotFile = { format: BOT_FORMAT, name: bot.name, settings: bot.settings, ...version.content };
    const compiled = compileBot(file);
    await attachModel(this.store, compiled, version.id, version.content);
    this.entries.delete(bot.id);
    this.entries.set(bot.id, { key, compiled });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return compiled;
  }
}
