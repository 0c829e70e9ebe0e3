// The one way the console's pages talk to the server: JSON in and out with the session cookie (or a
// form, for a file upload), an answer that is not 2xx turned into an ApiError carrying the
// catalogue's Code and Message (so a page can say something precise for a code it knows, and the
// server's words otherwise) and the rest of the error's body (the designer reads Problems and
// Version), a request that got no answer at all into an ApiError of status 0 (said in words, not
// as the browser's "Failed to fetch"), and a 204 into null. What a 401 means for a page (show the
// sign-in form, or a "sign in again" notice) stays the page's: `isSignedOut` tells it apart.

/** What the console says when the server cannot be reached. */
export const OFFLINE_MESSAGE = 'The server cannot be reached. Check your connection; the console tries again on your next action.';

/** An error answer's body as the error catalogue writes it (docs/errors.md); some codes add fields. */
export interface ErrorBody {
  Code?: string;
  Message?: string;
  /** INVALID_BOT: what is wrong in the bot file, by path */
  Problems?: { Path: string; Message: string }[];
  /** VERSION_MISMATCH: the draft's version on the server */
  Version?: number;
}

export class ApiError extends Error {
  constructor(
    /** the HTTP status; 0 when no answer came */
    readonly status: number,
    /** the error catalogue's Code ('NETWORK' when no answer came, '' when the answer had none) */
    readonly code: string,
    message: string,
    /** the answer's JSON body ({} when it had none) */
    readonly body: ErrorBody = {},
  ) {
    super(message);
  }
}

/** The session is gone (or never was): the page asks the operator to sign in. */
export const isSignedOut = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 401;

export interface ApiClient {
  /**
   * The JSON answer of `method` `path` (under the client's base) with `body` as JSON (a FormData as
   * it is: the browser writes the multipart boundary), or null for a 204; `headers` go along (e.g.
   * If-Match). `T` is what the page's own typed call says the answer is: nothing checks it.
   */
  call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
}

export interface ApiClientOptions {
  /** e.g. '/console/api' (the default) or a share link's '/share/<code>/api' */
  base?: string;
  /** called on every answer the server gave, whatever its status (a page clears its "offline" line) */
  onAnswer?: () => void;
}

function requestOf(method: string, body: unknown, headers: Record<string, string>): RequestInit {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json', ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json', ...headers };
    init.body = JSON.stringify(body);
  }
  return init;
}

export function apiClient(options: ApiClientOptions = {}): ApiClient {
  const base = options.base ?? '/console/api';
  return {
    async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
      const res = await fetch(base + path, requestOf(method, body, headers)).catch(() => {
        throw new ApiError(0, 'NETWORK', OFFLINE_MESSAGE);
      });
      options.onAnswer?.();
      const data: unknown = res.status === 204 ? null : await res.json().catch(() => null);
      if (!res.ok) {
        const error: ErrorBody = typeof data === 'object' && data !== null ? data : {};
        throw new ApiError(res.status, error.Code ?? '', error.Message ?? `The server answered ${res.status}.`, error);
      }
      return data as T;
    },
  };
}

/** The console API (/console/api) with the session cookie, for the pages that need no more. */
export const consoleApi: ApiClient = apiClient();

/** The operator signed in, as GET /console/api/me (and POST /login) answers. */
export interface Me {
  OperatorId: string;
  Name: string;
  Email: string;
  Role: 'agent' | 'designer' | 'admin';
}

/** Who is signed in (an ApiError of status 401 when nobody is: `isSignedOut`). */
export const signedIn = (api: ApiClient = consoleApi): Promise<Me> => api.call<Me>('GET', '/me');
