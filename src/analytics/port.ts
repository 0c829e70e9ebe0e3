// What analytics reads from storage: one bot's rows of a period, counted per UTC day or read as
// they are (waits, the transcripts' pages). Declared here with analytics' own rows (model.ts) and
// implemented by store/analytics.ts on SQLite and PostgreSQL; wiring.ts hands the service this
// slice, never the whole store. The counts a turn writes are the conversations' port's.
import type { CsatCount, DayCount, DayDirectionCount, KnowledgeDay, Period, StandingCount, TranscriptRow, WaitRow } from './model.js';

export interface AnalyticsReads {
  conversationsStarted(botId: string, p: Period): Promise<DayCount[]>;
  messages(botId: string, p: Period): Promise<DayDirectionCount[]>;
  handOvers(botId: string, p: Period): Promise<DayCount[]>;
  missedTexts(botId: string, p: Period): Promise<DayCount[]>;
  knowledgeQuestions(botId: string, p: Period): Promise<KnowledgeDay[]>;
  /** where conversations last active in the period and idle since before `idleBefore` stand, most frequent first */
  standing(botId: string, p: Period, idleBefore: number): Promise<StandingCount[]>;
  /** the waits for a person that began in the period, oldest first (or newest), at most `limit` */
  waits(botId: string, p: Period, limit: number, order?: 'oldest' | 'newest'): Promise<WaitRow[]>;
  csat(botId: string, p: Period): Promise<CsatCount[]>;
  /** the period's messages in (conversation, message) order after `after`, at most `limit` */
  transcriptPage(botId: string, p: Period, after: { conversationId: number; messageId: number }, limit: number): Promise<TranscriptRow[]>;
}

export interface AnalyticsStorage {
  analytics: AnalyticsReads;
}
