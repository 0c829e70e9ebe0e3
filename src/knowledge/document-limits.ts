// How much one document may become once read (issue 35, finding 2): the size caps count the bytes
// sent, but a 338 KB DOCX held 100 MB of XML and a 1 MB PDF of 6,500 pages sharing one content
// stream gave 26,000 passages. So what a document expands to is counted while it is read, on the
// indexing thread, and reading stops at the first cap passed: 413 PAYLOAD_TOO_LARGE with the cap's
// `Limit` and `Max`, nothing saved (docs/limits.md "Knowledge").
// DocumentError lives here (passages.ts re-exports it) so that the cap's error can extend it
// without an import cycle: the indexing thread passes both back as a document's own refusal.

/** The document has no text to index (knowledge.md: 400 INVALID_DOCUMENT, with the reason). */
export class DocumentError extends Error {}

export const DOCUMENT_LIMITS = Object.freeze({
  /** characters of text read out of one PDF or DOCX */
  textChars: 10 * 1024 * 1024,
  /** bytes of a DOCX's parts once unzipped, counted while inflating */
  docxXmlBytes: 32 * 1024 * 1024,
  /** pages of one PDF */
  pdfPages: 2_000,
  /** passages cut from one source */
  sourcePassages: 20_000,
  /** passages of all of a bot's sources (checked where passages are written: LIMIT_EXCEEDED) */
  botPassages: 100_000,
});

export type DocumentLimit = 'KnowledgeSourceText' | 'KnowledgeSourceXmlBytes' | 'KnowledgeSourcePages' | 'KnowledgeSourcePassages';

/** Which cap a document went over; `detail` crosses the thread boundary (worker-queue.ts). */
export class DocumentTooLarge extends DocumentError {
  readonly detail: { Limit: DocumentLimit; Max: number };
  constructor(limit: DocumentLimit, max: number, what: string) {
    super(`the document holds more than ${max} ${what}`);
    this.detail = { Limit: limit, Max: max };
  }
}

export const overText = () => new DocumentTooLarge('KnowledgeSourceText', DOCUMENT_LIMITS.textChars, 'characters of text');
export const overPassages = () => new DocumentTooLarge('KnowledgeSourcePassages', DOCUMENT_LIMITS.sourcePassages, 'passages');

/** A DocumentTooLarge's detail as it came back from the thread, or null for any other refusal. */
export function tooLargeDetail(detail: unknown): DocumentTooLarge['detail'] | null {
  if (typeof detail !== 'object' || detail === null) return null;
  const { Limit, Max } = detail as Record<string, unknown>;
  return typeof Limit === 'string' && typeof Max === 'number' ? { Limit: Limit as DocumentLimit, Max } : null;
}
