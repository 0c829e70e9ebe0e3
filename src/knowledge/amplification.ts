// The knowledge service's side of issue 35 (findings 2 and 6), kept out of service.ts: what a
// document over one of document-limits.ts's caps answers, the per-bot passage cap, and a queue
// place held while a large source's row is written.
import { AppError } from '../shared/errors.js';
import { DOCUMENT_LIMITS, DocumentTooLarge, type DocumentError } from './document-limits.js';

/** A document refused on the indexing thread: 413 with the cap it passed, else 400 INVALID_DOCUMENT. */
export function documentRefusal(error: DocumentError): AppError {
  if (error instanceof DocumentTooLarge) return new AppError('PAYLOAD_TOO_LARGE', `The document cannot be indexed: ${error.message}.`, { ...error.detail });
  return new AppError('INVALID_DOCUMENT', `The document cannot be indexed: ${error.message}.`);
}

/**
 * Refuses passages that would take the bot over its cap (run in the transaction that writes them;
 * the count takes the bot's row lock on PostgreSQL, so two indexings at once cannot both pass).
 */
export async function checkBotPassages(knowledge: { passageCount(botId: string, exceptSourceId: string): Promise<number> }, botId: string, sourceId: string, adding: number): Promise<void> {
  const max = DOCUMENT_LIMITS.botPassages;
  if ((await knowledge.passageCount(botId, sourceId)) + adding > max) {
    throw new AppError('LIMIT_EXCEEDED', `A bot's knowledge sources hold at most ${max} passages.`, { Limit: 'KnowledgePassages', Max: max });
  }
}

/** Runs `write` with a queue place held; the place is given back when the write is refused or fails. */
export async function heldPlace<T>(place: { release(): void }, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    place.release();
    throw error;
  }
}
