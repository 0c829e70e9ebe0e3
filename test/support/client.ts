// A small HTTP client for tests: every call returns status, headers and the parsed JSON body.
export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  /** send this exact text as the body instead of JSON */
  raw?: string;
  contentType?: string;
}

export class Client {
  constructor(readonly base: string) {}

  async call<T = any>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | FormData | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
      headers['content-type'] = options.contentType ?? 'application/json';
    } else if (body instanceof FormData) {
      // multipart/form-data: fetch writes the content type with its boundary
      payload = body;
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    const response = await fetch(this.base + path, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON (metrics, docs): the text is in `body` as is
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('POST', path, body, options);
  }
  put<T = any>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PUT', path, body, options);
  }
  patch<T = any>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PATCH', path, body, options);
  }
  delete<T = any>(path: string, options?: CallOptions) {
    return this.call<T>('DELETE', path, undefined, options);
  }
}
