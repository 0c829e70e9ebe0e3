// Between the bot file (what clients exchange) and what the store keeps: identity and settings
// on the bot row (they take effect at once), versioned content in drafts and published versions.
import type { BotFile, BotSettings } from '../engine/bot-file.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import type { BotContent, BotRecord } from './model.js';

export const DEFAULT_WORDS_PER_MINUTE = 200;

/** Settings with every default filled in, so readers never have to guess. */
export function normalizeSettings(settings: BotSettings | undefined): BotSettings {
  const s = settings ?? {};
  const channels = s.channels ?? {};
  return {
    ...s,
    enableTypeSpeed: s.enableTypeSpeed ?? false,
    wordsPerMinute: s.wordsPerMinute ?? DEFAULT_WORDS_PER_MINUTE,
    simplifiedAuth: s.simplifiedAuth ?? false,
    channels: {
      ...channels,
      custom: { webhookUrl: null, includeAllChannels: false, ...(channels.custom ?? {}) },
      web: { enabled: false, allowedOrigins: [], ...(channels.web ?? {}) },
    },
  };
}

export function contentOf(file: BotFile): BotContent {
  const content: BotContent = { variables: file.variables ?? {}, triggers: file.triggers ?? [], behaviours: file.behaviours };
  if (file.nlp !== undefined) content.nlp = file.nlp;
  if (file.knowledge !== undefined) content.knowledge = file.knowledge;
  return content;
}

export function toBotFile(bot: BotRecord, content: BotContent): BotFile {
  const file: BotFile = {
    format: BOT_FORMAT,
    name: bot.name,
    description: bot.description,
    settings: bot.settings,
    variables: content.variables,
    triggers: content.triggers,
    behaviours: content.behaviours,
    version: bot.version,
  };
  if (content.nlp !== undefined) file.nlp = content.nlp;
  if (content.knowledge !== undefined) file.knowledge = content.knowledge;
  if (bot.avatar) file.avatar = bot.avatar;
  return file;
}

/** Merges a settings patch: objects merge key by key, anything else (arrays, null) replaces. */
export function mergeSettings(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) merged[key] = mergeSettings(base[key], value);
  return merged;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
