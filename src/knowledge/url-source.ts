// `{Url, Name?}` sources (knowledge.md "Sources"): the page is fetched once, when the source is
// added or replaced, never again and never on a document's say. The address is the user's, so it
// goes through callApi's guard (integrations/http-call.ts): http(s) only, public addresses only
// (vetted in the connection's own DNS lookup), no redirects followed, one deadline, and a body read
// only up to `maxBytes` (the source limit, or the room the bot has left: issue 35), refused before
// any of it is read when its Content-Length says more. What came back is then read like an upload
// of its type.
import { fetch } from 'undici';
import { isPrivateLiteralUrl, outboundDispatcher, readCapped } from '../integrations/http-call.js';
import { AppError } from '../shared/errors.js';
import { MAX_SOURCE_BYTES, tooLarge } from './documents.js';

export const URL_FETCH_TIMEOUT_MS = 20_000;
/** The longest Url taken: longer ones are not addresses people publish documents at. */
export const MAX_URL_CHARS = 2_048;

export interface FetchedPage {
  url: string;
  kind: 'text' | 'html' | 'pdf' | 'docx';
  data: Buffer;
}

const TYPES: Record<string, FetchedPage['kind']> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/markdown': 'text',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

const unreadable = (reason: string) => new AppError('INVALID_DOCUMENT', `The document cannot be indexed: ${reason}.`);

export function checkedUrl(text: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(text.trim());
  } catch {
    // refused below
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || text.length > MAX_URL_CHARS) {
    throw new AppError('INVALID_REQUEST', `Url must be an http or https address of at most ${MAX_URL_CHARS} characters.`, { Field: 'Url' });
  }
  return url;
}

export interface FetchOptions {
  allowPrivateNetwork: boolean;
  timeoutMs?: number;
  /** bytes read at most (default the source limit); past them `tooLarge(declared)` is thrown */
  maxBytes?: number;
  /** the refusal past maxBytes, given the size the page declared or null when it was counted while reading */
  tooLarge?: (declared: number | null) => AppError;
}

export async function fetchPage(url: URL, options: FetchOptions): Promise<FetchedPage> {
  const maxBytes = options.maxBytes ?? MAX_SOURCE_BYTES;
  const overMax = options.tooLarge ?? (() => tooLarge());
  // an IP literal never reaches the guarded DNS lookup: vetted here
  if (!options.allowPrivateNetwork && isPrivateLiteralUrl(url.href)) throw unreadable('the address is not a public one');
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? URL_FETCH_TIMEOUT_MS);
  try {
    const res = await fetch(url, {
      headers: { accept: 'text/html, text/plain, text/markdown, application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document;q=0.9, */*;q=0.1' },
      redirect: 'manual',
      signal: abort.signal,
      dispatcher: outboundDispatcher(options.allowPrivateNetwork),
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => {});
      throw unreadable(`the page answered ${res.status} (a redirect): add the address it moved to`);
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => {});
      throw unreadable(`the page answered ${res.status}`);
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    const kind = TYPES[type];
    if (kind === undefined) {
      await res.body?.cancel().catch(() => {});
      throw unreadable(`the page is of type ${type === '' ? 'unknown' : JSON.stringify(type.slice(0, 100))}, not HTML, text, PDF or DOCX`);
    }
    // a compressed body's length says nothing of the text: only an unencoded one is refused on it
    const declared = res.headers.get('content-encoding') === null ? Number(res.headers.get('content-length') ?? NaN) : NaN;
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw overMax(declared);
    }
    const data = await readCapped(res.body, maxBytes);
    if (data === null) throw overMax(null);
    return { url: url.href, kind, data };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (abort.signal.aborted) throw unreadable(`the page did not answer within ${(options.timeoutMs ?? URL_FETCH_TIMEOUT_MS) / 1000} s`);
    const code = (error as { cause?: { code?: string } }).cause?.code;
    throw unreadable(code === 'EPRIVATEADDRESS' ? 'the address is not a public one' : 'the page could not be fetched');
  } finally {
    clearTimeout(timer);
  }
}
