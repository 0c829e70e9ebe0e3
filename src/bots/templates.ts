// The templates a new bot may start from in the console (issue 37 "New bot"): ordinary bot files in
// assets/templates/, validated by test/e2e/console-bots.test.ts like any bot file. Read once, on
// first use; each use gets its own copy.
import fs from 'node:fs';
import type { BotFile } from '../engine/bot-file.js';

const FOLDER = new URL('../../assets/templates/', import.meta.url);
/** In the order the console offers them; `empty` first. */
const IDS = ['empty', 'support-faq', 'order-tracking', 'lead-capture'] as const;
export type TemplateId = (typeof IDS)[number];

export interface TemplateView {
  TemplateId: TemplateId;
  Name: string;
  Description: string;
}

let loaded: Map<TemplateId, BotFile> | null = null;

function templates(): Map<TemplateId, BotFile> {
  loaded ??= new Map(IDS.map((id) => [id, JSON.parse(fs.readFileSync(new URL(`${id}.bot.json`, FOLDER), 'utf8')) as BotFile]));
  return loaded;
}

export const TEMPLATE_IDS: readonly string[] = IDS;

export function templateList(): TemplateView[] {
  return [...templates()].map(([id, file]) => ({ TemplateId: id, Name: file.name, Description: file.description ?? '' }));
}

/** A fresh copy of the template's bot file, named `name`. */
export function templateFile(id: TemplateId, name: string): BotFile {
  return { ...(structuredClone(templates().get(id)) as BotFile), name };
}
