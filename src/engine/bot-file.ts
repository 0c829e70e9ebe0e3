// The bot file format (bot-format.md) as TypeScript types. The JSON Schema in bots/schema.ts is the
// authority at the edge; these types describe what a validated file looks like inside the server.

/** The format and version every bot file names (bot-format.md). */
export const BOT_FORMAT = 'colloquy/bot@1';

export type Action = { type: string; id?: string; [field: string]: unknown };

export interface TextTrigger {
  match: string | { regex: string };
  variable?: string;
  whileWaiting?: boolean;
  actions: Action[];
}

/** A trigger that fires on an understood intent (understanding.md), checked in order with text triggers. */
export interface IntentTrigger {
  intent: string;
  minScore?: number;
  variable?: string;
  whileWaiting?: boolean;
  actions: Action[];
}

export type Trigger = TextTrigger | IntentTrigger;

export interface NlpIntent {
  name: string;
  examples: string[];
}

/** An entity found by synonyms (canonical value → its spellings) or by a regular expression. */
export type NlpEntity = { name: string; values: Record<string, string[]> } | { name: string; regex: string };

/** The `nlp` section (understanding.md "Intents and entities"). */
export interface NlpSection {
  language?: string;
  threshold?: number;
  intents?: NlpIntent[];
  entities?: NlpEntity[];
  aiFallback?: boolean;
}

export interface Interaction {
  name: string;
  start?: boolean;
  fallback?: boolean;
  enableUserChat?: boolean;
  description?: string;
  actions: Action[];
}

export interface Behaviour {
  name: string;
  start?: boolean;
  description?: string;
  apiKey?: string;
  triggers?: Trigger[];
  interactions: Interaction[];
}

export interface CustomChannelSettings {
  webhookUrl?: string | null;
  includeAllChannels?: boolean;
}

export interface WebChannelSettings {
  enabled?: boolean;
  allowedOrigins?: string[];
  /** the only variables a web page may set on a new conversation (never a system variable) */
  acceptVariables?: string[];
  /** the widget's look (bots/widget-look.ts) */
  title?: string;
  color?: string;
  greeting?: string;
  position?: 'right' | 'left';
}

export interface BotSettings {
  enableTypeSpeed?: boolean;
  wordsPerMinute?: number;
  simplifiedAuth?: boolean;
  /** governance.md "Retention" (conversations/retention-policy.ts) */
  retention?: { inactiveDays?: number; keepDays?: number };
  channels?: { custom?: CustomChannelSettings; web?: WebChannelSettings; [channel: string]: unknown };
  broadcasts?: BroadcastSettings;
  operators?: OperatorSettings;
  understanding?: UnderstandingSettings;
  /** agents.md "Budgets" */
  ai?: { maxTokensPerConversationDay?: number; maxTokensPerBotDay?: number; stream?: boolean };
}

/** knowledge.md "The built-in model": the embedding model of a bot with no provider one. */
export interface UnderstandingSettings {
  /** `builtin` (default): the server's packaged sentence model; `none`: words alone */
  embeddingModel?: 'builtin' | 'none';
}

/** api.md rule 6b: what a conversation waiting for a person (state 1) does with user texts. */
export interface OperatorSettings {
  /** `quiet` (default): texts go to the operators and run nothing; `bot`: the flow goes on */
  whileWaiting?: 'quiet' | 'bot';
  /** said once per hand-over request, the first time the visitor writes while waiting */
  waitingText?: string;
}

/** broadcasts.md: opt-out keywords and their replies, Messenger's message tag, the sending pace. */
export interface BroadcastSettings {
  stopKeywords?: string[];
  startKeywords?: string[];
  stopReply?: string;
  startReply?: string;
  messengerTag?: string;
  messagesPerSecond?: number;
}

export interface BotFile {
  format: typeof BOT_FORMAT;
  name: string;
  description?: string;
  avatar?: string;
  settings?: BotSettings;
  variables?: Record<string, string>;
  triggers?: Trigger[];
  behaviours: Behaviour[];
  nlp?: NlpSection;
  /** knowledge.md "In the bot file": answer unmatched texts from the bot's knowledge first */
  knowledge?: KnowledgeSection;
  /** Only present on files the server hands out (GET /bots/{key}, backups). */
  version?: number;
}

/** The top-level `knowledge` section (knowledge.md). */
export interface KnowledgeSection {
  /** a user text no trigger or intent takes is asked of the knowledge before the fallback runs */
  beforeFallback?: boolean;
  /** for the model, when the bot has an AI provider */
  instructions?: string;
  /** the lowest score (0..1) of the best passage for an answer (knowledge.md "The minimum") */
  minScore?: number;
}
