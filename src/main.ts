// Starting a node: config → migrated store → services (wiring.ts) → HTTP and the background loops.
import fs from 'node:fs';
import { SecretKeyMismatch } from './auth/secret-box.js';
import { loadServerKey, type ServerKey } from './auth/secret-key.js';
import type { Config } from './config.js';
import type { Maintenance } from './conversations/maintenance.js';
import type { Dispatcher } from './webhooks/dispatcher.js';
import { buildServer, type App } from './http/server.js';
import type { Services } from './http/services.js';
import { openStore, type Store } from './store/index.js';
import { createServices, type StartOptions } from './wiring.js';

export type { StartOptions };

export interface Running {
  app: App;
  store: Store;
  services: Services;
  maintenance: Maintenance;
  dispatcher: Dispatcher;
  url: string;
  adminTokenGenerated: string | null;
  close(): Promise<void>;
}

export const DEMO_BOT_FILE = new URL('../assets/support.bot.json', import.meta.url);

export class StartupError extends Error {}

export async function openMigratedStore(config: Config, log: (line: string) => void = () => undefined): Promise<Store> {
  let key: ServerKey;
  try {
    key = loadServerKey(config);
  } catch (error) {
    throw new StartupError(`cannot load the secret key: ${(error as Error).message}`);
  }
  if (key.created) log(`created ${key.source.replace(/^the /, '')}: back it up with the database, other nodes need the same key`);
  let store: Store;
  try {
    store = await openStore({ ...config, secrets: key.box, log });
  } catch (error) {
    const where = config.databaseUrl ? `PostgreSQL at ${redact(config.databaseUrl)}` : `SQLite in ${config.dataDir}`;
    throw new StartupError(`cannot open the database (${where}): ${(error as Error).message}`);
  }
  try {
    await store.migrate(log);
  } catch (error) {
    await store.close();
    // Serving with another node's key would answer with garbage: refuse, saying what to do.
    if (error instanceof SecretKeyMismatch) throw new StartupError(`${error.message} (this node's key came from ${key.source})`);
    throw error;
  }
  return store;
}

export async function start(config: Config, options: StartOptions = {}): Promise<Running> {
  const log = options.log ?? (() => undefined);
  if (!config.databaseUrl) fs.mkdirSync(config.dataDir, { recursive: true });
  const store = await openMigratedStore(config, log);
  const { services, maintenance, indexingLeases, dispatcher, scheduler, embedder, tokenTally, turns, adminTokenGenerated, mcpTools } = await createServices(config, store, options);
  // One server per SQLite database: what the last one left indexing will never be finished. (Not
  // in createServices: a command line run beside a server must not fail the server's indexing.)
  if (store.dialect === 'sqlite') await indexingLeases.failAllInterrupted();
  const app = await buildServer(services, { logger: options.logger ?? false });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${config.port} is already in use (set PORT to another one)` : (error as Error).message;
    throw new StartupError(`cannot listen on ${config.host}:${config.port}: ${why}`);
  }
  maintenance.start();
  dispatcher.start();
  scheduler.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // With PORT=0 the real port is known only now; links handed out must point at it.
  if (!config.publicUrlFromEnv) config.publicUrl = `http://${host}:${port}`;
  return {
    app,
    store,
    services,
    maintenance,
    dispatcher,
    url: `http://${host}:${port}`,
    adminTokenGenerated,
    // Stop taking requests, let started turns commit (their clients may have hung up), stop the
    // background loops (in-flight deliveries finish and release their claims), then disconnect.
    close: async () => {
      await app.close();
      await scheduler.stop();
      await turns.drain();
      await maintenance.stop();
      await dispatcher.stop();
      await embedder.stop();
      await tokenTally.flush();
      await mcpTools.close();
      await services.events.close?.();
      await store.close();
    },
  };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
