// What the store hands to the rest of the server: plain records, no SQL shapes.
import type { BotSettings, Behaviour, TextTrigger } from '../bots/bot-file.js';

export type Plan = 'free' | 'standard';

export interface AccountRecord {
  id: string;
  name: string;
  plan: Plan;
  packages: string[];
  /** moves on with every key rotation; tokens issued at an older version no longer work */
  keyVersion: number;
  createdAt: number;
}

/** The versioned part of a bot file: what a publish freezes. */
export interface BotContent {
  variables: Record<string, string>;
  triggers: TextTrigger[];
  behaviours: Behaviour[];
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

export interface BotVersionRecord {
  id: number;
  botId: string;
  version: number;
  content: BotContent;
  publishedAt: number;
}

export interface UsageRecord {
  month: string;
  messages: number;
  replies: number;
  notifications: number;
  apiCalls: number;
}
