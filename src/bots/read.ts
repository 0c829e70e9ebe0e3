// A bot file from text to a validated BotFile, with every refusal as data: this runs on the
// request thread for small files and on reader.ts's worker thread for large ones, where an error
// object would not cross back whole. The same code either way, so both answer alike.
import { AppError } from '../shared/errors.js';
import type { BotFile } from '../engine/bot-file.js';
import { BotParseError, BotRequestError, parseBotDocument, UnparsedJson } from './parse.js';
import { validateBotFile } from './validate.js';

/** A refusal as the client sees it: code, message and the body's extra fields. */
export interface BotFileRefusal {
  code: 'INVALID_BOT' | 'INVALID_JSON' | 'INVALID_REQUEST';
  message?: string;
  extra: Record<string, unknown>;
}

/**
 * A refusal for problems of content alone also carries the document (parsed and within the
 * bounds): the console keeps such a draft (readDraft in reader.ts). Parse errors and bounds have none.
 */
export type BotFileOutcome = { ok: true; bot: BotFile } | { ok: false; refusal: BotFileRefusal; document?: unknown };

/** What crosses to the worker: a text, and whether the HTTP layer left it to be read as a JSON body. */
export interface BotFileText {
  text: string;
  contentType?: string;
  jsonBody: boolean;
}

/** Parses, bounds and validates `raw` (text, bytes, an UnparsedJson or a parsed value). */
export function readBotFile(raw: unknown, contentType?: string): BotFileOutcome {
  let document: unknown;
  try {
    document = parseBotDocument(raw as string | object, contentType);
  } catch (error) {
    if (error instanceof BotRequestError) return { ok: false, refusal: { code: error.code, message: error.message, extra: {} } };
    if (!(error instanceof BotParseError)) throw error;
    const limit = error.limit ? { Limit: error.limit.limit, Max: error.limit.max } : {};
    return { ok: false, refusal: { code: 'INVALID_BOT', message: error.limit ? `The bot file is over a limit: ${error.limit.message}.` : undefined, extra: { ...limit, Problems: error.problems } } };
  }
  const result = validateBotFile(document);
  if (!result.ok) return { ok: false, refusal: { code: 'INVALID_BOT', message: `The bot file has ${result.problems.length} problem(s).`, extra: { Problems: result.problems } }, document };
  return { ok: true, bot: result.bot };
}

/** The worker's entry (reader.ts): the same as readBotFile, from what can cross threads. */
export function readBotText(input: BotFileText): BotFileOutcome {
  return readBotFile(input.jsonBody ? new UnparsedJson(input.text) : input.text, input.contentType);
}

/** The outcome's bot, or its refusal thrown as the client's error. */
export function botOf(outcome: BotFileOutcome): BotFile {
  if (outcome.ok) return outcome.bot;
  const { code, message, extra } = outcome.refusal;
  throw new AppError(code, message, extra);
}
