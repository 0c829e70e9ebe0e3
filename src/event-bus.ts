// The event bus a server process publishes conversation events on (kept out of main.ts, which
// wires the services): in-process for one SQLite node, relayed through PostgreSQL otherwise.
import crypto from 'node:crypto';
import type { Config } from './config.js';
import { InProcessEventBus, type EventBus } from './conversations/events.js';
import { RelayedEventBus } from './conversations/relayed-event-bus.js';
import { MAX_NOTIFY_BYTES, openPostgresRelay } from './store/pg-events.js';

/** One process: an in-process bus. On PostgreSQL (maybe several nodes): relayed with LISTEN/NOTIFY. */
export async function openEventBus(config: Config, log: (line: string) => void = () => undefined): Promise<EventBus> {
  if (!config.databaseUrl) return new InProcessEventBus();
  const bus = new RelayedEventBus(crypto.randomUUID(), MAX_NOTIFY_BYTES);
  const relay = await openPostgresRelay(
    config.databaseUrl,
    (payload) => bus.receive(payload),
    (error) => log(`event relay: ${(error as Error).message}`),
  );
  bus.attach(relay);
  return Object.assign(bus, {
    close: async () => {
      bus.stop();
      await relay.close();
    },
  });
}
