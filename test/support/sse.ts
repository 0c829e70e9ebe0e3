// A small Server-Sent Events client for tests: opens a stream with fetch, parses events and
// comment lines as they arrive, and waits for the event a test expects.
export interface SseEvent {
  event: string;
  data: any;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** the JSON body when the server answered with an error instead of a stream */
  body: any;
  events: SseEvent[];
  comments: string[];
  /** resolves with the first event (already received or coming) that `match` accepts */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** resolves when a comment line that `match` accepts arrives */
  nextComment(match: (c: string) => boolean, timeoutMs?: number): Promise<string>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  const stream: SseStream = {
    status: response.status,
    headers: response.headers,
    body: null,
    events,
    comments,
    next: (match, timeoutMs = 5000) =>
      waitFor(
        () => events.find(match),
        waiters,
        timeoutMs,
        () => `no matching event in ${JSON.stringify(events)}`,
      ),
    nextComment: (match, timeoutMs = 5000) =>
      waitFor(
        () => comments.find(match),
        waiters,
        timeoutMs,
        () => `no matching comment in ${JSON.stringify(comments)}`,
      ),
    close: () => abort.abort(),
  };
  if (response.status !== 200 || !response.body) {
    stream.body = await response.json().catch(() => null);
    return stream;
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) });
          wake();
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return stream;
}

function waitFor<T>(find: () => T | undefined, waiters: Set<() => void>, timeoutMs: number, why: () => string): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = find();
      if (found === undefined) return false;
      cleanup();
      resolve(found);
      return true;
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${timeoutMs} ms: ${why()}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      waiters.delete(waiter);
    };
    const waiter = () => void check();
    waiters.add(waiter);
    check();
  });
}
