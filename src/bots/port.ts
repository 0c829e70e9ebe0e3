// What bots need from storage, declared here and implemented by store/bots.ts and
// store/understanding.ts on SQLite and PostgreSQL. wiring.ts hands the bot services this slice,
// never the whole store. A clone's knowledge is copied in the clone's transaction (knowledge's own
// copyAll), the one write of another domain a bot's change makes.
import type { AiSettingsRecord, BotContent, BotRecord, BotVersionRecord, DraftWithProblems, MissedTextGroup, Publisher } from './model.js';

/** Bots, their drafts and published versions. */
export interface BotRepository {
  insert(bot: BotRecord, draft: BotContent): Promise<void>;
  /** false when the stored version is not `expectedVersion` (another writer got there first) */
  update(bot: BotRecord, expectedVersion: number, draft?: BotContent): Promise<boolean>;
  saveDraftWithProblems(bot: BotRecord, expectedVersion: number, pending: DraftWithProblems): Promise<boolean>;
  draftWithProblems(botId: string): Promise<DraftWithProblems | null>;
  draft(botId: string): Promise<BotContent | null>;
  byId(id: string): Promise<BotRecord | null>;
  byApiKey(apiKey: string): Promise<BotRecord | null>;
  byAccount(accountId: string): Promise<BotRecord[]>;
  clonesOf(masterId: string): Promise<BotRecord[]>;
  /** the behaviours a clone keeps as its own (no longer following its master) */
  detached(botId: string): Promise<string[]>;
  setDetached(botId: string, names: string[]): Promise<void>;
  releaseClones(masterId: string, now: number): Promise<number>;
  remove(id: string): Promise<void>;
  /** the new version's id */
  insertVersion(botId: string, version: number, content: BotContent, publishedAt: number, nlpModel: string | null, publishedBy?: Publisher | null): Promise<number>;
  versions(botId: string): Promise<Array<Omit<BotVersionRecord, 'content'>>>;
  versionById(id: number): Promise<BotVersionRecord | null>;
  versionByNumber(botId: string, version: number): Promise<BotVersionRecord | null>;
  /** the intent model trained when the version was published */
  nlpModel(versionId: number): Promise<string | null>;
}

/** What a bot's change runs in one transaction. */
export interface BotWrites {
  bots: BotRepository;
  /** a clone starts with its master's knowledge (knowledge.md "Clones") */
  knowledge: { copyAll(fromBotId: string, toBotId: string, newId: () => string, language: string, now: number): Promise<void> };
}

export interface BotStorage extends BotWrites {
  transaction<T>(work: (tx: BotWrites) => Promise<T>): Promise<T>;
  /** the names of the bot's MCP servers, which a publish checks its agents' `mcp` tools against (publish-checks.ts) */
  mcpServers: { byBot(botId: string): Promise<Array<{ name: string }>> };
}

/** A bot's own AI provider (encrypted key) and the texts that reached a fallback (understanding.md). */
export interface UnderstandingStorage {
  bots: Pick<BotRepository, 'byId' | 'versionByNumber' | 'nlpModel'>;
  aiSettings: {
    get(botId: string): Promise<AiSettingsRecord | null>;
    put(settings: AiSettingsRecord): Promise<void>;
    remove(botId: string): Promise<boolean>;
  };
  missedTexts: { grouped(botId: string, limit: number): Promise<MissedTextGroup[]> };
}
