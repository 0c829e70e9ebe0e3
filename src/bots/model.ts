// Bots as the rest of the server sees them: plain records, no SQL shapes.
import type { Behaviour, BotSettings, KnowledgeSection, NlpSection, Trigger } from '../engine/bot-file.js';
import type { Problem } from './problems.js';

/** The versioned part of a bot file: what a publish freezes. */
export interface BotContent {
  variables: Record<string, string>;
  triggers: Trigger[];
  behaviours: Behaviour[];
  /** intents and entities (understanding.md); absent when the bot has none */
  nlp?: NlpSection;
  /** knowledge.md "In the bot file"; absent when the bot has none */
  knowledge?: KnowledgeSection;
}

/**
 * A draft the console saved with its problems (docs/designer.md "Saving"): the whole file as sent
 * (an object within the bot-file bounds, nothing more is known of it), and what is wrong with it.
 * The bot's `draft` content, name and settings stay those of its last draft without problems.
 */
export interface DraftWithProblems {
  file: Record<string, unknown>;
  problems: Problem[];
}

export type BotRole = 'standard' | 'master' | 'clone';

export interface BotRecord {
  id: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
  secretVersion: number;
  webKey: string;
  name: string;
  description: string;
  avatar: string;
  settings: BotSettings;
  version: number;
  liveVersionId: number | null;
  role: BotRole;
  masterBotId: string | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * Published versions kept per bot, newest first (docs/limits.md): each publish adds one, so they
 * were a way to grow the database without bound; older ones are deleted with the publish that
 * passes the count. The live version is always the newest, so it is always kept.
 */
export const VERSIONS_KEPT = 100;

export interface BotVersionRecord {
  id: number;
  botId: string;
  version: number;
  content: BotContent;
  publishedAt: number;
  /** who published it; null for versions from before this was kept, and for creates, clones and a master's republish */
  publishedBy?: Publisher | null;
}

/** Who published a version: a signed-in operator (as they were then) or an account token. */
export type Publisher = { kind: 'operator'; operatorId: string; email: string; name: string } | { kind: 'account' };

/** A bot's own AI provider (understanding.md); the key is encrypted at rest and never returned. */
export interface AiSettingsRecord {
  botId: string;
  baseUrl: string;
  model: string;
  /** in clear; '' when the provider needs none */
  apiKey: string;
  /** the embedding model on the same URL and key (knowledge.md); null: none of its own */
  embeddingModel: string | null;
  updatedAt: number;
}

/** Texts the bot did not understand, grouped by key (understanding.md): what its understanding page lists. */
export interface MissedTextGroup {
  key: string;
  count: number;
  lastAt: number;
  behaviour: string;
  interaction: string;
}
