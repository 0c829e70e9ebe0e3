// Bulk data written straight into the server's database while the server is stopped:
// a 10,000-message history (through the store API, one transaction) and one million
// conversation rows (on the schema the store's migrations made: in SQLite one transaction, one
// prepared statement; in PostgreSQL INSERT ... SELECT over generate_series, 100,000 rows a statement).
import Database from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import type { ReplyPart } from '../src/engine/types.js';
import { openMigratedStore } from '../src/main.js';
import type { Store } from '../src/store/index.js';
import type { NewMessage } from '../src/conversations/model.js';

/** Where the server's data is: its SQLite data directory, or a PostgreSQL database when databaseUrl is set. */
export interface Db {
  dataDir: string;
  databaseUrl?: string;
}

async function withStore<T>(db: Db, work: (store: Store) => Promise<T>): Promise<T> {
  const env: NodeJS.ProcessEnv = { COLLOQUY_DATA_DIR: db.dataDir };
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  const store = await openMigratedStore(loadConfig(env));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function botId(store: Store, botKey: string): Promise<string> {
  const bot = await store.bots.byApiKey(botKey);
  if (!bot) throw new Error(`bot ${botKey} not found in the database`);
  return bot.id;
}

const part = (type: number, text: string, interaction: string): ReplyPart => ({
  Type: type,
  Text: text,
  Command: null,
  TypeDelay: 0,
  BehaviourName: 'Main',
  InteractionName: interaction,
  Parts: [],
});

/** Tops the stored history of `user` up to exactly `total` messages: user texts and two-part bot answers, alternately. */
export async function seedHistory(db: Db, botKey: string, user: string, total: number): Promise<{ messages: number; ms: number }> {
  const started = performance.now();
  return withStore(db, async (store) => {
    const conversation = await store.conversations.byUser(await botId(store, botKey), user);
    if (!conversation) throw new Error(`conversation ${user} not found`);
    const have = await store.conversations.messageCount(conversation.id);
    const messages: NewMessage[] = [];
    for (let i = have; i < total; i++) {
      messages.push(
        i % 2 === 0
          ? { direction: 'USER', parts: [part(19, `Question number ${i} about my order`, 'Echo')], pending: false }
          : {
              direction: 'BOT',
              parts: [part(0, `You said: Question number ${i - 1} about my order`, 'Echo'), part(0, `That makes ${i} messages.`, 'Echo')],
              pending: false,
            },
      );
    }
    // One transaction, appended 1,000 messages at a time: appendMessages may make one statement of
    // what it is given, and SQLite takes at most 32,766 parameters in a statement.
    await store.transaction(async (tx) => {
      for (let at = 0; at < messages.length; at += 1000) await tx.conversations.appendMessages(conversation.id, messages.slice(at, at + 1000), Date.now());
    });
    const messagesNow = await store.conversations.messageCount(conversation.id);
    return { messages: messagesNow, ms: performance.now() - started };
  });
}

export const bulkUserId = (i: number) => `bulk-user-${i}`;

/**
 * Inserts `count` conversations of the bot, each a copy of the started conversation `template`
 * (so a turn on any of them is a real turn) with its own user id.
 */
export async function seedConversations(target: Db, botKey: string, template: string, count: number): Promise<{ total: number; ms: number }> {
  const started = performance.now();
  // The schema is the store's own: opening it runs the migrations (none left to apply here).
  const { id, row } = await withStore(target, async (store) => {
    const id = await botId(store, botKey);
    const row = await store.conversations.byUser(id, template);
    if (!row) throw new Error(`template conversation ${template} not found`);
    return { id, row };
  });
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const state = structuredClone(row.state);
      state.variables.user_id = '@@USER@@';
      const [before, after] = JSON.stringify(state).split('"@@USER@@"');
      const now = Date.now();
      // Batches of 100,000 rows, each its own statement (and transaction).
      const batch = 100_000;
      for (let from = 0; from < count; from += batch) {
        await client.query(
          `INSERT INTO conversations (bot_id, user_id, channel, state, control_state, operator, ban_expiration, ban_message,
             forgetting, revision, created_at, updated_at)
           SELECT $1, 'bulk-user-' || i, $2, $3 || to_json('bulk-user-' || i)::text || $4, $5, NULL, NULL, NULL, 0, 0, $6, $6
           FROM generate_series($7::bigint, $8::bigint) AS i`,
          [id, row.channel, before, after, row.controlState, now, from, Math.min(count, from + batch) - 1],
        );
      }
      await client.query('ANALYZE conversations');
      const total = Number((await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM conversations WHERE bot_id = $1', [id])).rows[0].n);
      return { total, ms: performance.now() - started };
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(target.dataDir, 'colloquy.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const insert = db.prepare(
      `INSERT INTO conversations (bot_id, user_id, channel, state, control_state, operator, ban_expiration, ban_message,
         forgetting, revision, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, 0, 0, ?, ?)`,
    );
    const state = structuredClone(row.state);
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const user = bulkUserId(i);
        state.variables.user_id = user;
        insert.run(id, user, row.channel, JSON.stringify(state), row.controlState, now, now);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const total = (db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE bot_id = ?').get(id) as { n: number }).n;
    return { total, ms: performance.now() - started };
  } finally {
    db.close();
  }
}
