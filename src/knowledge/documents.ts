// Which document a request sends (knowledge.md "Sources"), its name, its kind and its size, checked
// before anything is written: exactly one of Text, Html, Faq, Url or an uploaded file (a Url is
// fetched by url-source.ts and then read here like a file of its type). Uploads are
// told apart by their file name's extension (a client's Content-Type for a part is often
// application/octet-stream); their bytes go to the indexing thread as they came.
import { AppError } from '../shared/errors.js';
import type { SourceKind } from './model.js';
import type { ReadableInput } from './reading.js';
import { decodeUtf8InSlices, NotUtf8Error } from '../shared/utf8-slices.js';
import { checkedFaq, type FaqPair } from './faq-pairs.js';

export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;

/** An uploaded file (multipart/form-data `file`). */
export interface Upload {
  fileName: string;
  data: Buffer;
}

export interface SourceBody {
  Name?: string;
  Text?: string;
  Html?: string;
  Faq?: Array<{ Question: string; Answer: string }>;
  Url?: string;
  Upload?: Upload;
}

export interface SourceDocument {
  name: string;
  kind: SourceKind;
  input: ReadableInput;
  bytes: number;
  /** where a Url source came from */
  url: string | null;
  /** an FAQ's pairs as written (trimmed), kept beside its passages; null for other kinds */
  faq: FaqPair[] | null;
}

const EXTENSIONS: Record<string, 'text' | 'html' | 'pdf' | 'docx'> = { txt: 'text', md: 'text', markdown: 'text', html: 'html', htm: 'html', pdf: 'pdf', docx: 'docx' };

export const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `A knowledge source holds at most ${MAX_SOURCE_BYTES} bytes.`, { Limit: 'KnowledgeSourceBytes', Max: MAX_SOURCE_BYTES });
const emptyDocument = () => new AppError('INVALID_DOCUMENT', 'The document cannot be indexed: it has no text.');

/** Refuses a body sending no document or more than one. */
export function checkOneDocument(body: SourceBody): void {
  const given = (['Text', 'Html', 'Faq', 'Url', 'Upload'] as const).filter((field) => body[field] !== undefined);
  if (given.length !== 1) throw new AppError('INVALID_REQUEST', 'Send exactly one of Text, Html, Faq or Url, or upload one file.', { Field: given.length === 0 ? 'Text' : given[1] });
}

/** A body's document (checkOneDocument first); a Url source comes through fileDocument. */
export async function documentOf(body: SourceBody): Promise<SourceDocument> {
  if (body.Upload !== undefined) return uploaded(body.Upload, body.Name);
  const name = body.Name?.trim() ?? '';
  if (name === '') throw new AppError('MISSING_FIELD', 'Name is required.', { Field: 'Name' });
  let input: ReadableInput;
  let bytes: number;
  let faq: FaqPair[] | null = null;
  if (body.Faq !== undefined) {
    faq = checkedFaq(body.Faq);
    input = { kind: 'faq', faq };
    bytes = faq.reduce((sum, e) => sum + Buffer.byteLength(e.Question) + Buffer.byteLength(e.Answer), 0);
  } else if (body.Html !== undefined) {
    input = { kind: 'html', html: body.Html };
    bytes = Buffer.byteLength(body.Html);
  } else {
    input = { kind: 'text', text: body.Text! };
    bytes = Buffer.byteLength(body.Text!);
  }
  if (bytes > MAX_SOURCE_BYTES) throw tooLarge();
  // an empty document is refused at once, whatever its size, without a trip to the thread
  const empty = input.kind === 'faq' ? input.faq.every((e) => e.Question.trim() === '' || e.Answer.trim() === '') : (input.kind === 'html' ? input.html : input.text).trim() === '';
  if (empty) throw emptyDocument();
  return { name, kind: input.kind, input, bytes, url: null, faq };
}

/** A file: its kind by extension (415 for any other), its name the Name field or the file's own. */
function uploaded(file: Upload, givenName: string | undefined): Promise<SourceDocument> {
  const dot = file.fileName.lastIndexOf('.');
  const kind = dot < 0 ? undefined : EXTENSIONS[file.fileName.slice(dot + 1).toLowerCase()];
  if (kind === undefined) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload a .txt, .md, .html, .pdf or .docx file.');
  const name = givenName?.trim() || file.fileName.trim();
  if (name === '') throw new AppError('MISSING_FIELD', 'Name is required.', { Field: 'Name' });
  return fileDocument(name, kind, file.data, null);
}

/** A file's bytes as a document of its kind (an upload, or a fetched page with `url`). */
export async function fileDocument(name: string, kind: 'text' | 'html' | 'pdf' | 'docx', data: Buffer, url: string | null): Promise<SourceDocument> {
  const bytes = data.byteLength;
  if (bytes > MAX_SOURCE_BYTES) throw tooLarge();
  if (bytes === 0) throw emptyDocument();
  const sourceKind = url === null ? kind : 'url';
  if (kind === 'pdf' || kind === 'docx') return { name, kind: sourceKind, input: { kind, data }, bytes, url, faq: null };
  // up to 10 MiB: decoded in slices between other requests (utf8-slices.ts, issue 35)
  const { text, blank } = await decodeUtf8InSlices(data).catch((error: unknown) => {
    if (error instanceof NotUtf8Error) throw new AppError('INVALID_DOCUMENT', 'The document cannot be indexed: the file is not UTF-8 text.');
    throw error;
  });
  if (blank) throw emptyDocument();
  return { name, kind: sourceKind, input: kind === 'html' ? { kind, html: text } : { kind, text }, bytes, url, faq: null };
}
