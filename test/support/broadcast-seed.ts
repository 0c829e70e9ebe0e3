// Many conversations for the broadcast scale tests and benches, written straight into the
// database (through the API 1,000 users take minutes of turns that these tests do not look at).
// seedWhatsAppUsers: each a WhatsApp user `whatsapp:<number>` whose state holds only user_id and channel, created
// `now`, so they are inside the 24-hour window and in any audience of the channel.
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestDatabase } from './databases.js';

export const FIRST_NUMBER = 49150000000;

/** The number of the `n`th seeded user (1-based), as the WhatsApp double sees it in `to`. */
export const numberOf = (n: number) => String(FIRST_NUMBER + n);

/** Inserts `count` WhatsApp conversations for the bot with `botKey` on PostgreSQL; returns the bot's id. */
export async function seedWhatsAppUsers(databaseUrl: string, botKey: string, count: number, now = Date.now()): Promise<string> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const botId = (await db.query('SELECT id FROM bots WHERE api_key = $1', [botKey])).rows[0].id as string;
    await db.query(
      `INSERT INTO conversations (bot_id, user_id, channel, state, control_state, operator, ban_expiration, ban_message, forgetting, revision, created_at, updated_at, control_changed_at)
       SELECT $1, 'whatsapp:' || ($4::bigint + n), 'whatsapp',
         json_build_object('v', 1, 'position', null, 'previous', null, 'bookmark', null, 'variables', json_build_object('user_id', 'whatsapp:' || ($4::bigint + n), 'channel', 'whatsapp'), 'tags', json_build_array(), 'privacy', json_build_object(), 'waiting', null)::text,
         0, NULL, NULL, NULL, 0, 0, $2, $2, $2
       FROM generate_series(1, $3) AS n`,
      [botId, now, count, FIRST_NUMBER],
    );
    return botId;
  } finally {
    await db.end();
  }
}

/**
 * `count` custom-channel conversations `u1`… with a small state (half tagged `customer`, a third
 * with plan gold) and one user message each, on either database.
 */
export async function seedCustomUsers(database: TestDatabase, botKey: string, count: number): Promise<void> {
  const now = Date.now();
  const state = (n: string) =>
    `'{"v":1,"position":null,"previous":null,"bookmark":null,"variables":{"user_id":"u' || ${n} || '","channel":"custom","first_name":"Ann","plan":"' || CASE WHEN ${n} % 3 = 0 THEN 'gold' ELSE 'silver' END || '"},"tags":[' || CASE WHEN ${n} % 2 = 0 THEN '"customer"' ELSE '' END || '],"privacy":{},"waiting":null}'`;
  const conversations = (series: string, n: string) =>
    `INSERT INTO conversations (bot_id, user_id, channel, state, control_state, forgetting, revision, created_at, updated_at)
     SELECT $1, 'u' || ${n}, 'custom', ${state(n)}, 0, 0, 0, $2, $2 FROM ${series}`;
  const messages = `INSERT INTO messages (conversation_id, direction, parts, pending, created_at)
     SELECT id, 'USER', '[{"Type":0,"Text":"hello"}]', 0, $2 FROM conversations WHERE bot_id = $1`;
  if (database.kind === 'postgres') {
    const db = new pg.Client({ connectionString: database.databaseUrl! });
    await db.connect();
    const botId = (await db.query('SELECT id FROM bots WHERE api_key = $1', [botKey])).rows[0].id;
    await db.query(conversations(`generate_series(1, ${count}) AS s(n)`, 's.n'), [botId, now]);
    await db.query(messages, [botId, now]);
    await db.query('ANALYZE');
    await db.end();
    return;
  }
  const db = new Database(path.join(database.dataDir, 'colloquy.sqlite'));
  db.pragma('busy_timeout = 10000');
  const botId = (db.prepare('SELECT id FROM bots WHERE api_key = ?').get(botKey) as { id: string }).id;
  const named = (sql: string) => sql.replace(/\$(\d)/g, '@p$1');
  db.transaction(() => {
    db.prepare(named(`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${count}) ${conversations('s', 's.n')}`)).run({ p1: botId, p2: now });
    db.prepare(named(messages)).run({ p1: botId, p2: now });
  })();
  db.close();
}
