// What the web channel needs from storage: the bot behind a web key and its account, what a
// visitor's page said, a waiting conversation's place in the queue, the operator's name and
// picture a visitor may see, the bot's recent waits (the expected reply time) and the demo's web
// key. Declared here and implemented by store/ (web-visitors.ts, bots.ts, accounts.ts,
// operators.ts, analytics.ts, meta.ts) on SQLite and PostgreSQL. wiring/ hands the channel this
// slice, never the whole store.
import type { AccountRecord } from '../../accounts/model.js';
import type { AnalyticsReads } from '../../analytics/port.js';
import type { BotRecord } from '../../bots/model.js';
import type { ConversationReads } from '../../conversations/port.js';
import type { EarlierConversation, WebVisitorContext, WebVisitorRecord } from './model.js';

/** What a web visitor's page said, and what operators show visitors of themselves (the console reads it too). */
export interface WebVisitorRepository {
  /** records what the page said now (each start or resume); the newest wins */
  note(conversationId: number, botId: string, c: WebVisitorContext, at: number): Promise<void>;
  of(conversationId: number): Promise<WebVisitorRecord | null>;
  /** the visitor's other conversations on this bot, newest first */
  earlier(botId: string, visitorId: string, exceptConversationId: number, limit: number): Promise<EarlierConversation[]>;
  /** 1 is next among the account's waiting conversations; null when it does not wait */
  queuePosition(accountId: string, conversationId: number): Promise<number | null>;
  /** false when the account has no such operator */
  setOperatorAvatar(accountId: string, operatorId: string, url: string | null): Promise<boolean>;
  operatorAvatar(accountId: string, email: string): Promise<string | null>;
}

/** The visitor's context, place in the queue and expected reply (visitors.ts). */
export interface WebVisitorStorage {
  webVisitors: Pick<WebVisitorRepository, 'note' | 'queuePosition' | 'operatorAvatar'>;
  analytics: Pick<AnalyticsReads, 'waits'>;
}

/** The widget's server side (web-channel.ts). */
export interface WebChannelStorage extends WebVisitorStorage {
  bots: { byWebKey(webKey: string): Promise<BotRecord | null> };
  accounts: { byId(id: string): Promise<AccountRecord | null> };
  /**
   * the display name a visitor sees for the operator who has the conversation; only the name, so
   * that the channel needs no operators' record (operators/ reads this folder: issue 38)
   */
  operators: { byEmail(accountId: string, email: string): Promise<{ name: string } | null> };
  conversations: Pick<ConversationReads, 'byUser'>;
  /** the demo bot's web key (demo-page.ts) */
  meta: { get(key: string): Promise<string | null>; set(key: string, value: string): Promise<void> };
}
