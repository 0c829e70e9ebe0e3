// What an import is made of (importers.md): the formats, the report every converter writes, and
// the result the service hands to the route and the CLI. Records only: no I/O, no Fastify.
import type { BotFile } from '../engine/bot-file.js';

export const IMPORT_FORMATS = ['typebot', 'rasa', 'dialogflow'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One element of the source that was not carried over, or carried over changed. */
export interface ReportEntry {
  /** where it was in the source: the file, then the JSON/YAML path (`data/stories.yml: $.stories[0].steps[3]`) */
  Path: string;
  /** what it was (`custom action action_show_time`) */
  What: string;
  /** why it was skipped or what was changed */
  Why: string;
  /** the interaction of the bot (its behaviour `Main`) the element belonged to, when there is one: the designer links it, to finish by hand */
  Interaction?: string;
}

export interface ImportReport {
  Converted: { Behaviours: number; Interactions: number; Intents: number; Entities: number; Variables: number; Actions: number };
  Skipped: ReportEntry[];
  Changed: ReportEntry[];
}

/** What a converter gives back: an ordinary bot file and what it could not carry over. */
export interface Conversion {
  bot: BotFile;
  report: ImportReport;
}

/** The files of an export as read from the upload: path inside the archive → its parsed document. */
export type ExportFiles = ReadonlyMap<string, unknown>;

/** A converted export, with the format it was read as. */
export interface ConvertedExport extends Conversion {
  format: ImportFormat;
}
