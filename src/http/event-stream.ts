// Server-Sent Events on top of Fastify: the response is taken over (hijacked) and kept open;
// a comment line every 15 s keeps proxies from closing an idle stream; a client that goes away
// ends it. Open streams are ended when the server closes, or `app.close()` would wait for them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './app.js';

export const HEARTBEAT_MS = 15_000;

export interface EventStream {
  /** one event: `data` is sent as JSON */
  send(data: unknown, event?: string): void;
  close(): void;
  readonly closed: boolean;
}

const open = new WeakMap<App, Set<EventStream>>();

/** Ends every open stream before the server stops listening (registered once per app). */
export function closeStreamsOnShutdown(app: App): void {
  if (open.has(app)) return;
  const streams = new Set<EventStream>();
  open.set(app, streams);
  app.addHook('preClose', async () => {
    for (const stream of [...streams]) stream.close();
  });
}

export function openEventStream(app: App, request: FastifyRequest, reply: FastifyReply, options: { onClose: () => void; onHeartbeat?: () => void; heartbeatMs?: number }): EventStream {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise buffer the stream
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  // A first line at once, so the client sees the stream open (and EventSource fires `open`).
  raw.write('retry: 3000\n: connected\n\n');

  const streams = open.get(app);
  let closed = false;
  const heartbeat = setInterval(() => {
    if (closed) return;
    raw.write(': heartbeat\n\n');
    options.onHeartbeat?.();
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  const stream: EventStream = {
    get closed() {
      return closed;
    },
    send(data, event) {
      if (closed) return;
      raw.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      streams?.delete(stream);
      options.onClose();
      raw.end();
    },
  };
  streams?.add(stream);
  // The browser closed the tab or the connection dropped. (The response's `close`, not the
  // request's: a GET request emits `close` as soon as its empty body has been read.)
  raw.on('close', () => stream.close());
  return stream;
}
