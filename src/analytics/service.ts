// Per-bot analytics (docs/analytics.md): what happened in a bot's conversations over a period,
// per UTC day, and where conversations stop. Shared by the integration API (/bots/{APIKey}/...)
// and the operator console; both pass a bot their caller owns.
import type { LiveBots } from '../bots/live.js';
import type { BotRecord } from '../bots/model.js';
import type { OperatorContext } from '../operators/sessions.js';
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import { DAY_MS, type DayCount } from '../store/analytics.js';
import { flowOf, type BotFlow } from './flow.js';
import { dateOfDay, periodOf } from './period.js';

/** A conversation counts as stopped once it has been idle this long. */
export const IDLE_MINUTES = 30;

export interface AnalyticsDay {
  Date: string;
  Conversations: number;
  UserMessages: number;
  BotMessages: number;
  OperatorMessages: number;
  HandOvers: number;
  MissedTexts: number;
  KnowledgeAnswered: number;
  KnowledgeUnanswered: number;
}

type Counted = Exclude<keyof AnalyticsDay, 'Date'>;

export interface BotAnalytics {
  BotId: string;
  BotName: string;
  From: string;
  To: string;
  Days: AnalyticsDay[];
  Totals: Record<Counted, number> & { FallbackShare: number };
  IdleMinutes: number;
  DropOff: { Behaviour: string | null; Interaction: string | null; Conversations: number }[];
}

const DIRECTIONS: Record<string, Counted> = { USER: 'UserMessages', BOT: 'BotMessages', OPERATOR: 'OperatorMessages' };

export class AnalyticsService {
  constructor(private readonly deps: { store: Store; clock: Clock; live: LiveBots }) {}

  /** The live version's flow (flow.ts); BOT_NOT_FOUND when nothing is published. */
  async flow(bot: BotRecord): Promise<BotFlow> {
    return flowOf(await this.deps.live.get(bot));
  }

  /** The console's bot picker: the operator's account's bots. */
  async botsOf(ctx: OperatorContext): Promise<{ BotId: string; Name: string; Published: boolean }[]> {
    const bots = await this.deps.store.bots.byAccount(ctx.account.id);
    return bots.map((b) => ({ BotId: b.id, Name: b.name, Published: b.liveVersionId !== null }));
  }

  /** A bot of the operator's account; another account's answers exactly as a missing one. */
  async consoleBot(ctx: OperatorContext, botId: string): Promise<BotRecord> {
    const bot = await this.deps.store.bots.byId(botId);
    if (!bot || bot.accountId !== ctx.account.id) throw new AppError('BOT_NOT_FOUND');
    return bot;
  }

  async of(bot: BotRecord, query: { from?: string; to?: string }): Promise<BotAnalytics> {
    const now = this.deps.clock.now();
    const { firstDay, lastDay } = periodOf(query, now);
    const period = { from: firstDay * DAY_MS, to: (lastDay + 1) * DAY_MS };
    const repo = this.deps.store.analytics;
    const [started, messages, handOvers, missed, standing, knowledge] = await Promise.all([
      repo.conversationsStarted(bot.id, period),
      repo.messages(bot.id, period),
      repo.handOvers(bot.id, period),
      repo.missedTexts(bot.id, period),
      repo.standing(bot.id, period, now - IDLE_MINUTES * 60_000),
      repo.knowledgeQuestions(bot.id, period),
    ]);
    const days: AnalyticsDay[] = [];
    for (let day = firstDay; day <= lastDay; day++) {
      days.push({ Date: dateOfDay(day), ...noCounts() });
    }
    const add = (rows: DayCount[], field: Counted) => {
      for (const row of rows) {
        const entry = days[row.day - firstDay];
        if (entry) entry[field] += row.count;
      }
    };
    add(started, 'Conversations');
    add(handOvers, 'HandOvers');
    add(missed, 'MissedTexts');
    add(knowledge.map((k) => ({ day: k.day, count: k.answered })), 'KnowledgeAnswered');
    add(knowledge.map((k) => ({ day: k.day, count: k.unanswered })), 'KnowledgeUnanswered');
    for (const row of messages) {
      const field = DIRECTIONS[row.direction];
      if (field) add([row], field);
    }
    const totals = noCounts();
    for (const day of days) for (const field of Object.keys(totals) as Counted[]) totals[field] += day[field];
    return {
      BotId: bot.id,
      BotName: bot.name,
      From: dateOfDay(firstDay),
      To: dateOfDay(lastDay),
      Days: days,
      Totals: { ...totals, FallbackShare: shareOf(totals.MissedTexts, totals.UserMessages) },
      IdleMinutes: IDLE_MINUTES,
      DropOff: standing.map((s) => ({ Behaviour: s.behaviour, Interaction: s.interaction, Conversations: s.count })),
    };
  }
}

const noCounts = (): Record<Counted, number> => ({
  Conversations: 0, UserMessages: 0, BotMessages: 0, OperatorMessages: 0, HandOvers: 0, MissedTexts: 0, KnowledgeAnswered: 0, KnowledgeUnanswered: 0,
});

/** missed / user messages, 0 to 1 with four decimals; 0 when there were no user messages. */
export function shareOf(missed: number, userMessages: number): number {
  return userMessages === 0 ? 0 : Math.round(Math.min(1, missed / userMessages) * 10_000) / 10_000;
}
