// Bots as the rest of the server sees them: plain records, no SQL shapes.
import type { Behaviour, BotSettings, TextTrigger } from './bot-file.js';

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
