// LISTEN/NOTIFY on PostgreSQL: the transport that lets several nodes share live events. A
// dedicated connection listens (and reconnects when it drops); notifications go through a
// second one so a slow listener never delays a sender.
import pg from 'pg';

export const EVENT_CHANNEL = 'colloquy_events';
/** NOTIFY payloads must stay under 8000 bytes. */
export const MAX_NOTIFY_BYTES = 7900;

export interface EventRelay {
  /** one JSON text (no raw newline), at most MAX_NOTIFY_BYTES */
  send(payload: string): void;
  close(): Promise<void>;
}

export async function openPostgresRelay(url: string, onPayload: (payload: string) => void, onError: (error: unknown) => void = () => undefined): Promise<EventRelay> {
  let closed = false;
  let listener: pg.Client | null = null;

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      // several payloads in one notification, one a line (a JSON text never holds a raw newline)
      if (message.channel === EVENT_CHANNEL && message.payload) for (const payload of message.payload.split('\n')) onPayload(payload);
    });
    client.on('error', (error) => {
      onError(error);
      if (!closed) setTimeout(() => void listen().catch(onError), 500).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${EVENT_CHANNEL}`);
    listener = client;
  };
  await listen();

  const sender = new pg.Pool({ connectionString: url, max: 1 });
  sender.on('error', onError);
  // One NOTIFY at a time, carrying every payload sent meanwhile (as many as fit): a round trip per
  // event cost more than the chat turn that caused it, and one at a time keeps them in order.
  const queued: string[] = [];
  let sending = false;
  const flush = () => {
    if (sending || queued.length === 0 || closed) return;
    let batch = queued.shift()!;
    let bytes = Buffer.byteLength(batch);
    while (queued.length > 0 && bytes + 1 + Buffer.byteLength(queued[0]) <= MAX_NOTIFY_BYTES) {
      const next = queued.shift()!;
      bytes += 1 + Buffer.byteLength(next);
      batch += `\n${next}`;
    }
    sending = true;
    sender
      .query('SELECT pg_notify($1, $2)', [EVENT_CHANNEL, batch])
      .catch(onError)
      .finally(() => {
        sending = false;
        flush();
      });
  };
  return {
    send(payload) {
      if (closed) return; // work finishing during shutdown: other nodes no longer need to hear of it
      queued.push(payload);
      flush();
    },
    async close() {
      closed = true;
      await (listener as pg.Client | null)?.end().catch(() => undefined);
      await sender.end().catch(() => undefined);
    },
  };
}
