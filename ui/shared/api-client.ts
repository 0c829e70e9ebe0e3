// The one way the console's pages talk to the server: JSON in and out with the session cookie, an
// answer that is not 2xx turned into an ApiError carrying the catalogue's Code and Message (so a
// page can say something precise for a code it knows, and the server's words otherwise), a
// request that got no answer at all into an ApiError of status 0 (said in words, not as the
// browser's "Failed to fetch"), and a 204 into null. What a 401 means for a page (show the sign-in
// form, or a "sign in again" notice) stays the page's: `isSignedOut` tells it apart.

/** What the console says when the server cannot be reached. */
export const OFFLINE_MESSAGE = 'The server cannot be reached. Check your connection; the console tries again on your next action.';

export class ApiError extends Error {
  constructor(
    /** the HTTP status; 0 when no answer came */
    readonly status: number,
    /** the error catalogue's Code ('NETWORK' when no answer came, '' when the answer had none) */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The session is gone (or never was): the page asks the operator to sign in. */
export const isSignedOut = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 401;

export interface ApiClient {
  /** The JSON answer of `method` `path` (under the client's base) with `body` as JSON, or null for a 204; `headers` go along (e.g. If-Match). */
  // biome-ignore lint/suspicious/noExplicitAny: a page that names no answer type reads the JSON as it comes
  call<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
}

export interface ApiClientOptions {
  /** e.g. '/console/api' (the default) or a share link's '/share/<code>/api' */
  base?: string;
  /** called on every answer the server gave, whatever its status (a page clears its "offline" line) */
  onAnswer?: () => void;
}

export function apiClient(options: ApiClientOptions = {}): ApiClient {
  const base = options.base ?? '/console/api';
  return {
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json', ...headers } };
      if (body !== undefined) {
        init.headers = { accept: 'application/json', 'content-type': 'application/json', ...headers };
        init.body = JSON.stringify(body);
      }
      const res = await fetch(base + path, init).catch(() => {
        throw new ApiError(0, 'NETWORK', OFFLINE_MESSAGE);
      });
      options.onAnswer?.();
      const data = res.status === 204 ? null : await res.json().catch(() => null);
      if (!res.ok) throw new ApiError(res.status, data?.Code ?? '', data?.Message ?? `The server answered ${res.status}.`);
      return data;
    },
  };
}
