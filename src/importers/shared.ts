// Small helpers the three converters share: reading untyped export data defensively (an export
// is whatever a person uploaded), variable names made safe, and the one-behaviour bot shape.
import type { BotFile, Interaction, NlpSection, Trigger } from '../engine/bot-file.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import { SYSTEM_VARIABLES } from '../engine/state.js';
import { cleanName } from './names.js';
import type { ReportBuilder } from './report.js';

export type Obj = Record<string, unknown>;

export const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
export const objAt = (value: unknown): Obj => (isObj(value) ? value : {});
export const listAt = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const textAt = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null);

/**
 * A variable name the bot file accepts: cleaned like any name, and never a system variable (no
 * action may write those, bot-format.md "System variables"): `channel` becomes `imported_channel`.
 */
export function variableName(raw: unknown, path: string, report: ReportBuilder): string {
  let name = cleanName(raw, 'answer');
  if (SYSTEM_VARIABLES.includes(name)) name = `imported_${name}`;
  if (name !== raw)
    report.change(
      path,
      `variable ${JSON.stringify(String(raw ?? '').slice(0, 60))}`,
      `renamed to ${JSON.stringify(name)}: ${SYSTEM_VARIABLES.includes(String(raw)) ? 'the server sets a variable of that name itself' : 'a name may not be empty or hold control characters'}`,
    );
  return name;
}

/** The bot file of an import: one behaviour holding every interaction. */
export function oneBehaviourBot(parts: { name: string; description?: string; interactions: Interaction[]; triggers?: Trigger[]; nlp?: NlpSection; variables?: Record<string, string> }): BotFile {
  const bot: BotFile = {
    format: BOT_FORMAT,
    name: parts.name,
    ...(parts.description ? { description: parts.description } : {}),
    behaviours: [{ name: 'Main', start: true, interactions: parts.interactions }],
  };
  if (parts.variables && Object.keys(parts.variables).length > 0) bot.variables = parts.variables;
  if (parts.triggers && parts.triggers.length > 0) bot.triggers = parts.triggers;
  if (parts.nlp) bot.nlp = parts.nlp;
  return bot;
}

/** goTo an interaction of the one behaviour by its name. */
export const goToInteraction = (interaction: string) => ({ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction });
