// CSV exports of a bot's analytics (docs/analytics.md "CSV exports"): the figures of a period, one
// row per day and a total, and the transcripts of the messages written in it. RFC 4180 with CRLF
// line ends and a header row. Every text cell is quoted and formula-looking text defused (csvCell,
// OWASP "CSV injection"): transcripts hold whatever visitors typed. Transcripts are read page by page and written as they come, never
// held whole; an export stops after MAX_TRANSCRIPT_MESSAGES and says so in its last row.
import type { ReplyPart } from '../engine/types.js';
import { PartType } from '../engine/parts.js';
import type { BotAnalytics, TranscriptRow } from './model.js';

export const MAX_TRANSCRIPT_MESSAGES = 100_000;
const PAGE = 500;

type Cell = string | number | null;

/**
 * One cell, the one rule for every CSV the server writes (docs/security.md "CSV exports"): a
 * number as it is, a text always quoted. A formula character (=, +, -, @, a tab or a carriage
 * return) that starts the text, or follows a ; or a , in it, gets a ' before it: a spreadsheet
 * whose locale separates with ; splits `a;=cmd|…` at the ; and would run the second half
 * (issue 35, finding 5).
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const defused = value.replace(/(^|[;,])([=+\-@\t\r])/g, "$1'$2");
  return `"${defused.replaceAll('"', '""')}"`;
}

export const csvRow = (cells: Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;

const FIGURES = [
  'Conversations',
  'UserMessages',
  'BotMessages',
  'OperatorMessages',
  'HandOvers',
  'MissedTexts',
  'Requests',
  'WaitP50Seconds',
  'WaitP90Seconds',
  'FirstResponseP50Seconds',
  'FirstResponseP90Seconds',
  'CsatAnswers',
  'CsatAverage',
] as const;

/** The figures of a period: a row per day, then `Total` (sums, the period's percentiles and average). */
export function figuresCsv(data: BotAnalytics): string {
  const lines = [csvRow(['Date', ...FIGURES])];
  for (const day of data.Days) lines.push(csvRow([day.Date, ...FIGURES.map((f) => day[f])]));
  const t = data.Totals;
  const w = data.Waits;
  lines.push(
    csvRow([
      'Total',
      t.Conversations,
      t.UserMessages,
      t.BotMessages,
      t.OperatorMessages,
      t.HandOvers,
      t.MissedTexts,
      w.Requests,
      w.Waiting.P50Seconds,
      w.Waiting.P90Seconds,
      w.FirstResponse.P50Seconds,
      w.FirstResponse.P90Seconds,
      data.Csat.Answers,
      data.Csat.Average,
    ]),
  );
  return lines.join('');
}

/** What a stored message said, as text: texts, questions, card titles, [buttons] and links, in order. */
export function textOfParts(parts: readonly ReplyPart[]): string {
  const out: string[] = [];
  const walk = (list: readonly ReplyPart[]) => {
    for (const part of list) {
      const text = part.Text ?? part.Title ?? null;
      if (part.Type === PartType.Button || part.Type === PartType.Link) {
        if (text) out.push(`[${text}]`);
      } else if (text) out.push(text);
      if (part.Url && part.Type !== PartType.Link) out.push(part.Url);
      walk(part.Parts ?? []);
    }
  };
  walk(parts);
  return out.join('\n');
}

const partsOf = (json: string): ReplyPart[] => {
  try {
    const parsed = JSON.parse(json);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
};

export type TranscriptPage = (after: { conversationId: number; messageId: number }, limit: number) => Promise<TranscriptRow[]>;

/** The transcripts CSV, a chunk of rows per page read. */
export async function* transcriptsCsv(page: TranscriptPage, iso: (ms: number) => string, max = MAX_TRANSCRIPT_MESSAGES): AsyncGenerator<string> {
  yield csvRow(['UserId', 'Channel', 'Time', 'Direction', 'Text']);
  let after = { conversationId: 0, messageId: 0 };
  let written = 0;
  for (;;) {
    const room = max - written;
    // one row more than there is room for tells whether the export has to stop short
    const asked = Math.min(PAGE, room + 1);
    const rows = await page(after, asked);
    const kept = rows.slice(0, room);
    if (kept.length > 0) {
      yield kept.map((r) => csvRow([r.userId, r.channel, iso(r.createdAt), r.direction, textOfParts(partsOf(r.parts))])).join('');
      written += kept.length;
      after = { conversationId: kept[kept.length - 1].conversationId, messageId: kept[kept.length - 1].messageId };
    }
    if (rows.length > kept.length) {
      yield csvRow(['', '', '', '', `The export stops after ${max} messages: choose a shorter period for the rest.`]);
      return;
    }
    if (rows.length < asked) return;
  }
}
