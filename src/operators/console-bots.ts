// Which bots an operator may open in the console: the bots of the operator's own account. The one
// rule every console page goes through (analytics, designer, knowledge, broadcasts, a bot's life),
// so that another account's bot answers exactly as a missing one everywhere.
import type { BotRecord } from '../bots/model.js';
import { AppError } from '../shared/errors.js';
import type { OperatorContext } from './sessions.js';

export interface ConsoleBotStorage {
  bots: { byId(id: string): Promise<BotRecord | null>; byAccount(accountId: string): Promise<BotRecord[]> };
}

export class ConsoleBots {
  constructor(private readonly store: ConsoleBotStorage) {}

  /** A bot of the operator's account; another account's answers exactly as a missing one. */
  async open(ctx: OperatorContext, botId: string): Promise<BotRecord> {
    const bot = await this.store.bots.byId(botId);
    if (!bot || bot.accountId !== ctx.account.id) throw new AppError('BOT_NOT_FOUND');
    return bot;
  }

  /** The console's bot picker: the operator's account's bots. */
  async of(ctx: OperatorContext): Promise<{ BotId: string; Name: string; Published: boolean }[]> {
    const bots = await this.store.bots.byAccount(ctx.account.id);
    return bots.map((b) => ({ BotId: b.id, Name: b.name, Published: b.liveVersionId !== null }));
  }
}
