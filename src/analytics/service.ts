// Per-bot analytics (docs/analytics.md): what happened in a bot's conversations over a period,
// per UTC day, and where conversations stop. Shared by the integration API (/bots/{APIKey}/...)
// and the operator console; both pass a bot their caller owns (the console's: operators/console-bots.ts).
import type { LiveBots } from '../bots/live.js';
import type { BotRecord } from '../bots/model.js';
import type { Clock } from '../shared/clock.js';
import { DAY_MS } from '../shared/durations.js';
import { transcriptsCsv, type TranscriptPage } from './csv.js';
import type { AnalyticsDay, BotAnalytics, BotFlow, Counted, DayCount, PeriodFigures } from './model.js';
import type { AnalyticsStorage } from './port.js';
import { csatDays, csatFigures, MAX_WAITS, waitFigures } from './figures.js';
import { flowOf } from './flow.js';
import { dateOfDay, periodOf } from './period.js';

/** A conversation counts as stopped once it has been idle this long. */
export const IDLE_MINUTES = 30;

const DIRECTIONS: Record<string, Counted> = { USER: 'UserMessages', BOT: 'BotMessages', OPERATOR: 'OperatorMessages' };

export class AnalyticsService {
  constructor(private readonly deps: { store: AnalyticsStorage; clock: Clock; live: LiveBots }) {}

  /** The live version's flow (flow.ts); BOT_NOT_FOUND when nothing is published. */
  async flow(bot: BotRecord): Promise<BotFlow> {
    return flowOf(await this.deps.live.get(bot));
  }

  async of(bot: BotRecord, query: { from?: string; to?: string }): Promise<BotAnalytics> {
    const now = this.deps.clock.now();
    const { firstDay, lastDay } = periodOf(query, now);
    const length = lastDay - firstDay + 1;
    const [current, previous, standing] = await Promise.all([
      this.period(bot.id, firstDay, lastDay),
      this.period(bot.id, firstDay - length, firstDay - 1),
      this.deps.store.analytics.standing(bot.id, msOf(firstDay, lastDay), now - IDLE_MINUTES * 60_000),
    ]);
    const { days, ...figures } = current;
    const { days: _days, ...before } = previous;
    return {
      BotId: bot.id,
      BotName: bot.name,
      ...figures,
      Days: days,
      IdleMinutes: IDLE_MINUTES,
      DropOff: standing.map((s) => ({ Behaviour: s.behaviour, Interaction: s.interaction, Conversations: s.count })),
      Previous: before,
    };
  }

  /**
   * The transcripts of the period as CSV chunks (csv.ts): the period is checked here, before the
   * first chunk, so that a bad one is refused as a 400 rather than cut off mid-stream.
   */
  transcripts(bot: BotRecord, query: { from?: string; to?: string }): { From: string; To: string; chunks: AsyncGenerator<string> } {
    const { firstDay, lastDay } = periodOf(query, this.deps.clock.now());
    const period = msOf(firstDay, lastDay);
    const page: TranscriptPage = (after, limit) => this.deps.store.analytics.transcriptPage(bot.id, period, after, limit);
    return { From: dateOfDay(firstDay), To: dateOfDay(lastDay), chunks: transcriptsCsv(page, (ms) => this.deps.clock.iso(ms)) };
  }

  /** Everything counted for the days firstDay..lastDay, per day and in all. */
  private async period(botId: string, firstDay: number, lastDay: number): Promise<PeriodFigures & { days: BotAnalytics['Days'] }> {
    const period = msOf(firstDay, lastDay);
    const repo = this.deps.store.analytics;
    const [started, messages, handOvers, missed, waits, csat, knowledge] = await Promise.all([
      repo.conversationsStarted(botId, period),
      repo.messages(botId, period),
      repo.handOvers(botId, period),
      repo.missedTexts(botId, period),
      repo.waits(botId, period, MAX_WAITS),
      repo.csat(botId, period),
      repo.knowledgeQuestions(botId, period),
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
    add(
      knowledge.map((k) => ({ day: k.day, count: k.answered })),
      'KnowledgeAnswered',
    );
    add(
      knowledge.map((k) => ({ day: k.day, count: k.unanswered })),
      'KnowledgeUnanswered',
    );
    for (const row of messages) {
      const field = DIRECTIONS[row.direction];
      if (field) add([row], field);
    }
    const totals = noCounts();
    for (const day of days) for (const field of Object.keys(totals) as Counted[]) totals[field] += day[field];
    const waited = waitFigures(waits, firstDay, lastDay);
    const rated = csatDays(csat, firstDay, lastDay);
    return {
      From: dateOfDay(firstDay),
      To: dateOfDay(lastDay),
      Totals: { ...totals, FallbackShare: shareOf(totals.MissedTexts, totals.UserMessages) },
      Waits: waited.total,
      Csat: csatFigures(csat),
      days: days.map((day, i) => ({
        ...day,
        Requests: waited.days[i].Requests,
        WaitP50Seconds: waited.days[i].Waiting.P50Seconds,
        WaitP90Seconds: waited.days[i].Waiting.P90Seconds,
        FirstResponseP50Seconds: waited.days[i].FirstResponse.P50Seconds,
        FirstResponseP90Seconds: waited.days[i].FirstResponse.P90Seconds,
        CsatAnswers: rated[i].Answers,
        CsatAverage: rated[i].Average,
      })),
    };
  }
}

const noCounts = (): Record<Counted, number> => ({
  Conversations: 0,
  UserMessages: 0,
  BotMessages: 0,
  OperatorMessages: 0,
  HandOvers: 0,
  MissedTexts: 0,
  KnowledgeAnswered: 0,
  KnowledgeUnanswered: 0,
});
const msOf = (firstDay: number, lastDay: number) => ({ from: firstDay * DAY_MS, to: (lastDay + 1) * DAY_MS });

/** missed / user messages, 0 to 1 with four decimals; 0 when there were no user messages. */
export function shareOf(missed: number, userMessages: number): number {
  return userMessages === 0 ? 0 : Math.round(Math.min(1, missed / userMessages) * 10_000) / 10_000;
}
