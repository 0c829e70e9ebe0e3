// Composition root: config → store → services → HTTP. Everything is wired here by hand.
import fs from 'node:fs';
import { AccountService } from './accounts/service.js';
import { loadAdminToken } from './auth/admin-token.js';
import { Authenticator } from './auth/authenticate.js';
import { newSigningKey, SIGNING_KEY_META, TokenService } from './auth/tokens.js';
import { LiveBots } from './bots/live.js';
import { buildBotSchema } from './bots/schema.js';
import { BotService } from './bots/service.js';
import { ChatService } from './channels/custom/chat-service.js';
import type { Config } from './config.js';
import { ConversationTurns } from './conversations/turns.js';
import { actionRegistry } from './engine/registry.js';
import { buildServer, type App } from './http/server.js';
import type { Services } from './http/services.js';
import { Metrics } from './observability/metrics.js';
import { systemClock, type Clock } from './shared/clock.js';
import { openStore, type Store } from './store/index.js';
import type { ConversationRecord } from './store/conversations.js';

export interface StartOptions {
  clock?: Clock;
  /** pino options, or false for silence (tests) */
  logger?: boolean | object;
  log?: (line: string) => void;
  random?: () => number;
}

export interface Running {
  app: App;
  store: Store;
  services: Services;
  url: string;
  adminTokenGenerated: string | null;
  close(): Promise<void>;
}

export const DEMO_BOT_FILE = new URL('../assets/support.bot.json', import.meta.url);

export class StartupError extends Error {}

export async function openMigratedStore(config: Config, log: (line: string) => void = () => undefined): Promise<Store> {
  let store: Store;
  try {
    store = await openStore(config);
  } catch (error) {
    const where = config.databaseUrl ? `PostgreSQL at ${redact(config.databaseUrl)}` : `SQLite in ${config.dataDir}`;
    throw new StartupError(`cannot open the database (${where}): ${(error as Error).message}`);
  }
  await store.migrate(log);
  return store;
}

export async function createServices(config: Config, store: Store, options: StartOptions = {}) {
  const clock = options.clock ?? systemClock;
  const signingKey = await store.meta.getOrInit(SIGNING_KEY_META, newSigningKey());
  const adminToken = await loadAdminToken(store, config.adminToken);
  const tokens = new TokenService(signingKey, config.tokenMinutes, () => clock.now());
  const turns = new ConversationTurns(store, clock);
  const metrics = new Metrics(() => store.conversationsByState());
  const forget = (c: ConversationRecord) => void store.conversations.remove(c.id).catch(() => undefined);
  const services: Services = {
    config,
    clock,
    store,
    auth: new Authenticator(store, tokens, adminToken.matches),
    tokens,
    accounts: new AccountService(store, clock),
    bots: new BotService(store, clock),
    chat: new ChatService({ store, live: new LiveBots(store), clock, turns, metrics, config, random: options.random, forget }),
    metrics,
    botSchema: buildBotSchema(actionRegistry) as Record<string, unknown>,
  };
  // Conversations whose forgetting was interrupted by a stop are deleted now.
  for (const id of await store.conversations.forgettingIds()) await store.conversations.remove(id);
  return { services, adminTokenGenerated: adminToken.generated };
}

export async function start(config: Config, options: StartOptions = {}): Promise<Running> {
  const log = options.log ?? (() => undefined);
  if (!config.databaseUrl) fs.mkdirSync(config.dataDir, { recursive: true });
  const store = await openMigratedStore(config, log);
  const { services, adminTokenGenerated } = await createServices(config, store, options);
  const app = await buildServer(services, { logger: options.logger ?? false });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${config.port} is already in use (set PORT to another one)` : (error as Error).message;
    throw new StartupError(`cannot listen on ${config.host}:${config.port}: ${why}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    app,
    store,
    services,
    url: `http://${host}:${port}`,
    adminTokenGenerated,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
