// How much knowledge one bot holds (knowledge.md "Limits", docs/limits.md "Knowledge"): its
// sources, their bytes, one document's size and the search's result counts, and the refusal a bot
// past one of them gets. The adding transaction (store/knowledge.ts) and a Url's fetch (service.ts)
// both check them.
import { AppError } from '../shared/errors.js';
import { MAX_SOURCE_BYTES } from './documents.js';

export const KNOWLEDGE_LIMITS = Object.freeze({
  /** bytes of one document as sent (413 PAYLOAD_TOO_LARGE) */
  sourceBytes: MAX_SOURCE_BYTES,
  /** a source up to this size is indexed before the 201 answers */
  inlineBytes: 1024 * 1024,
  sources: 200,
  botBytes: 50 * 1024 * 1024,
  searchDefault: 5,
  searchMax: 20,
});

/** Refuses when the adding transaction found a limit passed. */
export function refuseOver(hit: 'sources' | 'bytes' | null): void {
  if (hit !== null) throw overLimit(hit);
}

/** The LIMIT_EXCEEDED a bot past its sources' count or bytes gets. */
export function overLimit(hit: 'sources' | 'bytes'): AppError {
  if (hit === 'sources') return new AppError('LIMIT_EXCEEDED', `A bot holds at most ${KNOWLEDGE_LIMITS.sources} knowledge sources.`, { Limit: 'KnowledgeSources', Max: KNOWLEDGE_LIMITS.sources });
  return new AppError('LIMIT_EXCEEDED', `A bot's knowledge sources hold at most ${KNOWLEDGE_LIMITS.botBytes} bytes of text.`, { Limit: 'KnowledgeBytes', Max: KNOWLEDGE_LIMITS.botBytes });
}
