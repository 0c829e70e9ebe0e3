// LISTEN/NOTIFY on PostgreSQL: the transport that lets several nodes share live events. A
// dedicated connection listens (and reconnects when it drops); notifications go through a
// second one so a slow listener never delays a sender.
import pg from 'pg';

export const EVENT_CHANNEL = 'colloquy_events';
/** NOTIFY payloads must stay under 8000 bytes. */
export const MAX_NOTIFY_BYTES = 7900;

export interface EventRelay {
  send(payload: string): void;
  close(): Promise<void>;
}

export async function openPostgresRelay(url: string, onPayload: (payload: string) => void, onError: (error: unknown) => void = () => undefined): Promise<EventRelay> {
  let closed = false;
  let listener: pg.Client | null = null;

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel === EVENT_CHANNEL && message.payload) onPayload(message.payload);
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

  const sender = new pg.Pool({ connectionString: url, max: 2 });
  sender.on('error', onError);
  return {
    send(payload) {
      if (closed) return; // work finishing during shutdown: other nodes no longer need to hear of it
      sender.query('SELECT pg_notify($1, $2)', [EVENT_CHANNEL, payload]).catch(onError);
    },
    async close() {
      closed = true;
      await (listener as pg.Client | null)?.end().catch(() => undefined);
      await sender.end().catch(() => undefined);
    },
  };
}
