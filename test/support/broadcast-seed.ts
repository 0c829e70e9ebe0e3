// Many conversations for the broadcast scale tests and benches, written straight into the
// database (through the API 1,000 users take minutes of turns that these tests do not look at):
// each a WhatsApp user `whatsapp:<number>` whose state holds only user_id and channel, created
// `now`, so they are inside the 24-hour window and in any audience of the channel.
import pg from 'pg';

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
