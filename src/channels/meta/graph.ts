// One Send API call to Meta's Graph API (WhatsApp Cloud API `<phone-number-id>/messages`,
// Messenger `me/messages`), through undici's fetch, the HTTP client the server already uses.
// COLLOQUY_META_GRAPH_URL is set by whoever runs the server, so no private-network guard here
// (channels.md "Names, ids, configuration").
import { fetch } from 'undici';
import type { SendResult } from '../messaging/model.js';
import { retryAfterMs } from '../messaging/retry-after.js';

const CALL_TIMEOUT_MS = 10_000;
/** An error answer is read for its code only; a body this long is not Meta's. */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * Graph error codes that mean "too many calls, wait" whatever the HTTP status (Meta answers
 * several of them with 400): Graph API "Handling Errors" (4 app, 17 user, 32 page, 613 hourly
 * limit, 80000–80014 business use case limits) and the WhatsApp Cloud API error codes (130429
 * throughput, 131048 spam rate limit, 131056 pair rate limit, 133016 registration limit).
 */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 130429, 131048, 131056, 133016]);
const isRateLimit = (code: number) => RATE_LIMIT_CODES.has(code) || (code >= 80000 && code <= 80014);
/** Temporary failures Meta says to retry: 1 API unknown, 2 API service, WhatsApp 131000 something went wrong, 131016 service unavailable. */
const TRANSIENT_CODES = new Set([1, 2, 131000, 131016]);

export interface GraphError {
  message?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
}

/** POSTs `body` as JSON to `{graphUrl}/{path}` with the bearer token and says how it went. */
export async function graphPost(graphUrl: string, path: string, token: string, body: unknown): Promise<SendResult> {
  // config.ts already dropped any trailing slash of COLLOQUY_META_GRAPH_URL.
  const url = `${graphUrl}/${path}`;
  let response: Awaited<ReturnType<typeof fetch>>;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = (error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError';
    return {
      ok: false,
      retry: true,
      statusCode: null,
      error: `Meta ${path}: ${timedOut ? `no answer within ${CALL_TIMEOUT_MS / 1000} s` : `could not be reached (${(error as Error)?.message ?? 'network error'})`}`,
    };
  }
  if (response.ok) return { ok: true };
  const graphError = errorOf(text.slice(0, MAX_ERROR_BODY));
  const code = typeof graphError?.code === 'number' ? graphError.code : null;
  const rateLimited = response.status === 429 || (code !== null && isRateLimit(code));
  const retry = rateLimited || response.status >= 500 || graphError?.is_transient === true || (code !== null && TRANSIENT_CODES.has(code));
  const retryAfterMs = retry ? waitOf(response.headers) : undefined;
  // Graph messages usually begin with their code already: `(#131056) (Business Account, …) pair rate limit hit`.
  const message = graphError?.message ?? '';
  const described = message ? (code === null || message.startsWith('(#') ? message : `(#${code}) ${message}`) : text.slice(0, 200) || response.statusText;
  return { ok: false, retry, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), statusCode: response.status, error: `Meta ${path}: ${response.status} ${described}` };
}

/** The `error` object of a Graph error answer: `{"error": {message, type, code, error_subcode, fbtrace_id}}`. */
function errorOf(text: string): GraphError | null {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return typeof parsed?.error === 'object' && parsed.error !== null ? (parsed.error as GraphError) : null;
  } catch {
    return null;
  }
}

/**
 * How long Meta asked to wait: a `Retry-After` header (seconds or an HTTP date), else the
 * `estimated_time_to_regain_access` (minutes) of `X-Business-Use-Case-Usage`.
 */
function waitOf(headers: { get(name: string): string | null }): number | undefined {
  const retryAfter = retryAfterMs(headers.get('retry-after'));
  if (retryAfter !== undefined) return retryAfter;
  const usage = headers.get('x-business-use-case-usage');
  if (usage) {
    try {
      const minutes = Object.values(JSON.parse(usage) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>)
        .flat()
        .map((u) => u.estimated_time_to_regain_access ?? 0);
      const longest = Math.max(0, ...minutes);
      if (longest > 0) return longest * 60_000;
    } catch {
      // a header we cannot read is no reason to stop retrying
    }
  }
  return undefined;
}
