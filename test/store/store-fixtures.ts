// Shared by the store contract suites: a freshly migrated store per test (on the database kind of
// the dialect loop), a raw driver for checks the repositories do not expose, and record builders.
import path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import type { ReplyPart } from '../../src/engine/types.js';
import type { SqlDriver } from '../../src/store/driver.js';
import { openStore, type Store } from '../../src/store/index.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../support/databases.js';
import type { ConversationRecord } from '../../src/conversations/model.js';
import type { AccountRecord } from '../../src/accounts/model.js';
import type { BotContent, BotRecord } from '../../src/bots/model.js';

export interface StoreContext {
  store: Store;
  db: TestDatabase;
}

export async function openTestStore(db: TestDatabase): Promise<Store> {
  return openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
}

/** Registers hooks giving every test of the enclosing suite a database of its own, migrated. */
export function storePerTest(kind: DatabaseKind): StoreContext {
  const context = {} as StoreContext;
  beforeEach(async () => {
    context.db = await createTestDatabase(kind);
    context.store = await openTestStore(context.db);
    await context.store.migrate();
  });
  afterEach(async () => {
    await context.store.close();
    await context.db.drop();
  });
  return context;
}

/** A migrated store on a database of its own (a contract suite's subject), and how to close and drop both. */
export async function openMigratedTestStore(kind: DatabaseKind): Promise<{ store: Store; close(): Promise<void> }> {
  const db = await createTestDatabase(kind);
  const store = await openTestStore(db);
  await store.migrate();
  return {
    store,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}

/** A second connection to the same database, for SQL the repositories do not offer. */
export async function openRaw(db: TestDatabase): Promise<SqlDriver> {
  return db.databaseUrl ? openPostgres(db.databaseUrl) : openSqlite(path.join(db.dataDir, 'colloquy.sqlite'));
}

let sequence = 0;

/** A new account: the record plus its API key in clear (the store keeps only the key's hash). */
export function accountRecord(over: Partial<AccountRecord & { apiKey: string }> = {}): AccountRecord & { apiKey: string } {
  const n = ++sequence;
  return {
    id: `acc-${n}`,
    name: `Account ${n}`,
    plan: 'standard',
    packages: [],
    apiKey: `account-key-${n}`,
    keyVersion: 1,
    createdAt: 1_700_000_000_000 + n,
    ...over,
  };
}

/** What reading an account back gives: the record without the key. */
export const storedAccount = ({ apiKey: _key, ...account }: AccountRecord & { apiKey: string }): AccountRecord => account;

export function botRecord(accountId: string, over: Partial<BotRecord> = {}): BotRecord {
  const n = ++sequence;
  return {
    id: `bot-${n}`,
    accountId,
    apiKey: `bot-key-${n}`,
    apiSecret: `secret-${n}`,
    secretVersion: 1,
    webKey: `web-key-${n}`,
    name: `Bot ${n}`,
    description: `Description ${n}`,
    avatar: '',
    settings: { enableTypeSpeed: false, channels: { web: { enabled: true, allowedOrigins: ['https://example.com'] } } },
    version: 1,
    liveVersionId: null,
    role: 'standard',
    masterBotId: null,
    createdAt: 1_700_000_000_000 + n,
    updatedAt: 1_700_000_000_000 + n,
    ...over,
  };
}

export function botContent(label: string): BotContent {
  return {
    variables: { greeting: `hello from ${label}` },
    triggers: [{ match: 'help', actions: [{ type: 'goto', behaviour: 'Main' }] }],
    behaviours: [
      {
        name: 'Main',
        start: true,
        interactions: [{ name: 'Welcome', start: true, actions: [{ type: 'text', texts: [`Welcome (${label})`] }] }],
      },
    ],
  };
}

export function conversationRecord(botId: string, userId: string, over: Partial<ConversationRecord> = {}): Omit<ConversationRecord, 'id'> {
  const { id: _ignored, ...rest } = {
    id: 0,
    botId,
    userId,
    channel: 'custom',
    state: { v: 1, position: null, previous: null, bookmark: null, variables: {}, tags: [], privacy: {}, waiting: null },
    controlState: 0,
    operator: null,
    banExpiration: null,
    banMessage: null,
    forgetting: false,
    revision: 0,
    controlChangedAt: 1_700_000_100_000,
    createdAt: 1_700_000_100_000,
    updatedAt: 1_700_000_100_000,
    ...over,
  } satisfies ConversationRecord;
  return rest;
}

export function part(text: string, children: ReplyPart[] = []): ReplyPart {
  return { Type: 0, Text: text, Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Welcome', Parts: children };
}

/** An account with one bot, the usual parent rows of a test. */
export async function seedBot(store: Store): Promise<{ account: AccountRecord & { apiKey: string }; bot: BotRecord }> {
  const account = accountRecord();
  await store.accounts.insert(account);
  const bot = botRecord(account.id);
  await store.bots.insert(bot, botContent(bot.id));
  return { account, bot };
}
