// PostgreSQL: a chat turn's usual writes (its missed texts included) in ONE statement. On PostgreSQL every statement is a
// round trip to the server, and a turn in a transaction took six (BEGIN, the conversation's
// UPDATE, the messages' INSERT, the history size, the usage upsert, COMMIT). Data-modifying CTEs
// do the same writes in one statement, which PostgreSQL runs atomically on its own (autocommit:
// durable when it returns, as a COMMIT is). The UPDATE is the revision check; the messages and the
// usage are written only through its row, so nothing is written when it matches none.
//
// The history limits are part of the check: a turn that would take the history over one is not
// written here ('over-limit'), and the caller takes the transaction path, which trims. SQLite
// does not need this: its statements cost no round trip and its transactions commit in groups.
import type { TurnSave, TurnSaveOutcome } from '../conversations/port.js';
import { prepared, type Queryable } from './driver.js';
import { encodeMessages } from './message-rows.js';

const SQL = prepared(`
WITH saved AS (
  UPDATE conversations SET state = $2, control_state = $3, operator = $4, ban_expiration = $5, ban_message = $6,
    forgetting = $7, channel = $8, revision = revision + 1, updated_at = $9,
    handed_over_at = CASE WHEN handed_over_at IS NULL AND $3 IN (1, 2) THEN $9 ELSE handed_over_at END,
    message_count = message_count + $11, message_bytes = message_bytes + $12, control_changed_at = $24
  WHERE id = $1 AND revision = $10 AND message_count + $11 <= $13 AND message_bytes + $12 <= $14
  RETURNING id
), appended AS (
  INSERT INTO messages (conversation_id, created_at, direction, parts, pending)
  SELECT saved.id, $9::bigint, m.direction, m.parts, m.pending
  FROM saved CROSS JOIN json_to_recordset($15::json) AS m(n integer, direction text, parts text, pending integer)
  ORDER BY m.n
), counted AS (
  INSERT INTO usage (account_id, month, messages, replies, notifications, api_calls, ai_tokens)
  SELECT $16::text, $17::text, $18::bigint, $19::bigint, $20::bigint, $21::bigint, $23::bigint FROM saved WHERE $22::integer = 1
  ON CONFLICT (account_id, month) DO UPDATE SET messages = usage.messages + EXCLUDED.messages,
    replies = usage.replies + EXCLUDED.replies, notifications = usage.notifications + EXCLUDED.notifications,
    api_calls = usage.api_calls + EXCLUDED.api_calls, ai_tokens = usage.ai_tokens + EXCLUDED.ai_tokens
), missed AS (
  INSERT INTO missed_texts (bot_id, conversation_id, text, text_key, behaviour, interaction, created_at)
  SELECT x.bot_id, saved.id, x.text, x.key, x.behaviour, x.interaction, x.created_at
  FROM saved CROSS JOIN json_to_recordset($25::json)
    AS x(n integer, bot_id text, text text, key text, behaviour text, interaction text, created_at bigint)
  ORDER BY x.n
), trimmed AS (
  -- the conversation keeps its newest missed texts: this statement does not see the rows it
  -- inserts, so $26 old ones stay (-1: not a trimming turn, turns.ts)
  DELETE FROM missed_texts WHERE $26::integer >= 0 AND conversation_id IN (SELECT id FROM saved) AND id <= (
    SELECT id FROM missed_texts WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1 OFFSET GREATEST($26::integer, 0))
)
SELECT (SELECT COUNT(*) FROM saved) AS saved, (SELECT revision FROM conversations WHERE id = $1) AS revision_before`);

export async function saveTurnInOneStatement(db: Queryable, turn: TurnSave): Promise<TurnSaveOutcome> {
  const { conversation: c, usage } = turn;
  const encoded = encodeMessages(turn.messages);
  // `n`: the ids follow the order of the turn's messages, as a multi-row VALUES would give them
  const messages = encoded.rows.map((m, n) => ({ n, ...m }));
  const bytes = encoded.bytes;
  const missed = turn.missedTexts.map((m, n) => ({ n, bot_id: m.botId, text: m.text, key: m.key, behaviour: m.behaviour, interaction: m.interaction, created_at: m.createdAt }));
  const add = usage?.add ?? { messages: 0, replies: 0, notifications: 0, apiCalls: 0, aiTokens: 0 };
  const row = await db.get<{ saved: number; revision_before: number | null }>(SQL, [
    c.id,
    JSON.stringify(c.state),
    c.controlState,
    c.operator,
    c.banExpiration,
    c.banMessage,
    c.forgetting ? 1 : 0,
    c.channel,
    c.updatedAt,
    c.revision,
    messages.length,
    bytes,
    turn.limits.messages,
    turn.limits.bytes,
    JSON.stringify(messages),
    usage?.accountId ?? '',
    usage?.month ?? '',
    add.messages,
    add.replies,
    add.notifications,
    add.apiCalls,
    usage ? 1 : 0,
    add.aiTokens ?? 0,
    c.controlChangedAt,
    JSON.stringify(missed),
    turn.limits.missedTexts < 0 ? -1 : Math.max(turn.limits.missedTexts - missed.length, 0),
  ]);
  if (Number(row?.saved) === 1) return 'saved';
  // The subquery read the row as it was before the statement: the same revision means that only
  // the limits stopped the write.
  return row?.revision_before !== null && Number(row?.revision_before) === c.revision ? 'over-limit' : 'conflict';
}
