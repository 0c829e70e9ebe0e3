// How many `Url` sources a node fetches at once (issue 35): each fetch may hold up to 10 MiB of
// page and its decoded text while it is read, so 40 at once took 700 MB and stalled every chat.
// A fetch past a cap is refused at once with 503 KNOWLEDGE_BUSY (Retry-After; `Limit` says which
// cap), nothing fetched and nothing saved; it is not queued, since a queued request would hold
// its client for the same 20 s a slow page may take. The bot's cap comes first: one bot adding
// pages leaves the node's other slots to other bots. Slots are per node, in memory.
import { AppError } from '../shared/errors.js';

export const URL_FETCH_LIMITS = Object.freeze({ perNode: 4, perBot: 2 });

export class UrlFetchSlots {
  private node = 0;
  private readonly bots = new Map<string, number>();

  constructor(private readonly limits: { perNode: number; perBot: number } = URL_FETCH_LIMITS) {}

  /** `fetch` run in one of the bot's and the node's slots, released however it ends. */
  async run<T>(botId: string, fetch: () => Promise<T>): Promise<T> {
    const held = this.bots.get(botId) ?? 0;
    if (held >= this.limits.perBot) throw busy('Pages are being fetched for this bot', 'UrlFetchesPerBot', this.limits.perBot);
    if (this.node >= this.limits.perNode) throw busy('Too many pages are being fetched', 'UrlFetches', this.limits.perNode);
    this.node++;
    this.bots.set(botId, held + 1);
    try {
      return await fetch();
    } finally {
      this.node--;
      const left = (this.bots.get(botId) ?? 1) - 1;
      if (left === 0) this.bots.delete(botId);
      else this.bots.set(botId, left);
    }
  }
}

const busy = (what: string, limit: string, max: number) => new AppError('KNOWLEDGE_BUSY', `${what} (at most ${max} at once); try again in a few seconds.`, { Limit: limit, Max: max });
