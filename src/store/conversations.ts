// Conversations and their messages in SQL: the conversation model's persistence.
import type { ControlState, ConversationListing, ConversationRecord, Direction, HistorySize, NewMessage, StoredMessage } from '../conversations/model.js';
import { stateFromStored } from '../engine/state.js';
import type { ReplyPart } from '../engine/types.js';
import type { Queryable } from './driver.js';
import { encodeMessages, insertMessageRows } from './message-rows.js';

interface ConversationRow {
  id: number;
  bot_id: string;
  user_id: string;
  channel: string;
  state: string;
  control_state: number;
  operator: string | null;
  ban_expiration: string | null;
  ban_message: string | null;
  forgetting: number;
  revision: number;
  control_changed_at: number | null;
  created_at: number;
  updated_at: number;
}

interface SizeRow {
  message_count: number;
  message_bytes: number;
}

const toSize = (r: SizeRow | undefined): HistorySize => ({ messages: Number(r?.message_count ?? 0), bytes: Number(r?.message_bytes ?? 0) });

const toConversation = (r: ConversationRow): ConversationRecord => ({
  id: Number(r.id),
  botId: r.bot_id,
  userId: r.user_id,
  channel: r.channel,
  // Stored states may predate the current shape: one function upgrades them (engine/state.ts).
  state: stateFromStored(JSON.parse(r.state)),
  controlState: Number(r.control_state) as ControlState,
  operator: r.operator,
  banExpiration: r.ban_expiration,
  banMessage: r.ban_message,
  forgetting: Number(r.forgetting) === 1,
  revision: Number(r.revision),
  // null only on a row written by an older node during a rolling upgrade
  controlChangedAt: Number(r.control_changed_at ?? r.updated_at),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export function conversationRepository(db: Queryable) {
  return {
    async byUser(botId: string, userId: string): Promise<ConversationRecord | null> {
      const row = await db.get<ConversationRow>('SELECT * FROM conversations WHERE bot_id = $1 AND user_id = $2', [botId, userId]);
      return row ? toConversation(row) : null;
    },
    async byId(id: number): Promise<ConversationRecord | null> {
      const row = await db.get<ConversationRow>('SELECT * FROM conversations WHERE id = $1', [id]);
      return row ? toConversation(row) : null;
    },
    /** Inserts a new conversation; returns its id, or null when another request created it first. */
    async insert(c: Omit<ConversationRecord, 'id'>): Promise<number | null> {
      const row = await db.get<{ id: number }>(
        `INSERT INTO conversations (bot_id, user_id, channel, state, control_state, operator, ban_expiration, ban_message,
           forgetting, revision, created_at, updated_at, control_changed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (bot_id, user_id) DO NOTHING RETURNING id`,
        [
          c.botId,
          c.userId,
          c.channel,
          JSON.stringify(c.state),
          c.controlState,
          c.operator,
          c.banExpiration,
          c.banMessage,
          c.forgetting ? 1 : 0,
          c.revision,
          c.createdAt,
          c.updatedAt,
          c.controlChangedAt,
        ],
      );
      return row ? Number(row.id) : null;
    },
    /**
     * Saves a conversation only if nobody else saved it since it was read (`revision` check), so
     * two nodes can never interleave turns of one conversation. Returns false on a lost race.
     */
    async save(c: ConversationRecord): Promise<boolean> {
      const changed = await db.run(
        `UPDATE conversations SET state = $2, control_state = $3, operator = $4, ban_expiration = $5, ban_message = $6,
           forgetting = $7, channel = $8, revision = revision + 1, updated_at = $9, control_changed_at = $11,
           handed_over_at = CASE WHEN handed_over_at IS NULL AND $3 IN (1, 2) THEN $9 ELSE handed_over_at END
         WHERE id = $1 AND revision = $10`,
        [c.id, JSON.stringify(c.state), c.controlState, c.operator, c.banExpiration, c.banMessage, c.forgetting ? 1 : 0, c.channel, c.updatedAt, c.revision, c.controlChangedAt],
      );
      return changed === 1;
    },
    /**
     * Appends messages to a conversation's history and returns the history's size after them: the
     * running count and bytes kept in the conversation row (migration 9), updated in the same
     * transaction, so that a turn knows whether to trim without counting the history.
     */
    async appendMessages(conversationId: number, messages: NewMessage[], now: number): Promise<HistorySize> {
      const { rows, bytes } = encodeMessages(messages);
      await insertMessageRows(db, conversationId, rows, now);
      const size = await db.get<SizeRow>('UPDATE conversations SET message_count = message_count + $2, message_bytes = message_bytes + $3 WHERE id = $1 RETURNING message_count, message_bytes', [
        conversationId,
        messages.length,
        bytes,
      ]);
      return toSize(size);
    },
    /**
     * Keeps the newest `maxMessages` messages of a conversation and at most `maxBytes` of their
     * parts (the newest message always stays), deleting older ones (docs/limits.md). The size kept
     * in the conversation row says whether anything must go; when only the count is over, the
     * oldest surplus goes by the (conversation_id, id) index; the byte limit needs the window over
     * the history, which then also recounts the size from what is left.
     */
    async trimHistory(conversationId: number, maxMessages: number, maxBytes: number): Promise<number> {
      const size = toSize(await db.get<SizeRow>('SELECT message_count, message_bytes FROM conversations WHERE id = $1', [conversationId]));
      let deleted = 0;
      if (size.messages > maxMessages) {
        const gone = await db.all<{ bytes: number }>(
          `DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE conversation_id = $1 ORDER BY id LIMIT $2)
           RETURNING octet_length(parts) AS bytes`,
          [conversationId, size.messages - maxMessages],
        );
        deleted = gone.length;
        size.messages -= deleted;
        size.bytes -= gone.reduce((sum, row) => sum + Number(row.bytes), 0);
        await db.run('UPDATE conversations SET message_count = $2, message_bytes = $3 WHERE id = $1', [conversationId, size.messages, size.bytes]);
      }
      if (size.bytes <= maxBytes) return deleted;
      // The newest message that must go: the first one, newest first, past either limit.
      deleted += await db.run(
        `DELETE FROM messages WHERE conversation_id = $1 AND id <= (
           SELECT id FROM (
             SELECT id,
               ROW_NUMBER() OVER (ORDER BY id DESC) AS n,
               SUM(octet_length(parts)) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS bytes
             FROM messages WHERE conversation_id = $1
           ) AS newest
           WHERE n > $2 OR (n > 1 AND bytes > $3)
           ORDER BY id DESC LIMIT 1
         )`,
        [conversationId, maxMessages, maxBytes],
      );
      await db.run(
        `UPDATE conversations SET
           message_count = (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = $1),
           message_bytes = (SELECT COALESCE(SUM(octet_length(m.parts)), 0) FROM messages m WHERE m.conversation_id = $1)
         WHERE id = $1`,
        [conversationId],
      );
      return deleted;
    },
    /** The whole stored history as the JSON text of one array of parts, oldest first, never parsed. */
    async historyJson(conversationId: number): Promise<string> {
      const rows = await db.all<{ parts: string }>('SELECT parts FROM messages WHERE conversation_id = $1 ORDER BY id', [conversationId]);
      // Each row is the text of an array of parts: keep what is between its brackets.
      const inner = rows.map((r) => r.parts.slice(1, -1)).filter((text) => text.length > 0);
      return `[${inner.join(',')}]`;
    },
    /** Stored history, oldest first; with `limit`, only the last `limit` parts. */
    async historyParts(conversationId: number, limit?: number): Promise<ReplyPart[]> {
      if (limit !== undefined && limit <= 0) return [];
      // A message holds at least one part, so the last `limit` messages hold the last `limit` parts.
      const rows =
        limit === undefined
          ? await db.all<{ parts: string }>('SELECT parts FROM messages WHERE conversation_id = $1 ORDER BY id', [conversationId])
          : (await db.all<{ parts: string }>('SELECT parts FROM messages WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2', [conversationId, limit])).reverse();
      // One parse of the whole history is much cheaper than one per message (READY on 10,000 messages).
      const parts = (JSON.parse(`[${rows.map((r) => r.parts).join(',')}]`) as ReplyPart[][]).flat();
      return limit === undefined ? parts : parts.slice(Math.max(0, parts.length - limit));
    },
    /** Returns the queued messages' parts, oldest first, and marks them delivered — in one statement,
     *  so two pollers (even on two nodes) never both receive the same message. */
    async takePending(conversationId: number): Promise<ReplyPart[]> {
      const rows = await db.all<{ id: number; parts: string }>('UPDATE messages SET pending = 0 WHERE conversation_id = $1 AND pending = 1 RETURNING id, parts', [conversationId]);
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      return rows.flatMap((r) => JSON.parse(r.parts) as ReplyPart[]);
    },
    /** Conversations whose ban's last day (UTC) is before `today`, to be lifted one turn each. */
    async endedBans(today: string, limit = 500): Promise<Array<{ botId: string; userId: string }>> {
      const rows = await db.all<{ bot_id: string; user_id: string }>(
        'SELECT bot_id, user_id FROM conversations WHERE control_state = 3 AND ban_expiration IS NOT NULL AND ban_expiration < $1 LIMIT $2',
        [today, limit],
      );
      return rows.map((r) => ({ botId: r.bot_id, userId: r.user_id }));
    },
    remove: (id: number) => removeConversation(db, id),
    forgettingIds: () => forgettingConversationIds(db),
    listByBots: (botIds: string[], limit: number) => conversationsOfBots(db, botIds, limit),
    storedMessages: (conversationId: number, limit: number) => storedMessages(db, conversationId, limit),
    async messageCount(conversationId: number): Promise<number> {
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = $1', [conversationId]);
      return Number(row?.n ?? 0);
    },
  };
}

export type ConversationRepository = ReturnType<typeof conversationRepository>;

/** Counts for the /metrics gauge. */
export async function conversationsByState(db: Queryable): Promise<Record<string, number>> {
  const names = ['bot', 'requested', 'operator', 'banned'];
  const counts: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  // preview conversations (a preview twin's) are not the bots' conversations
  const rows = await db.all<{ control_state: number; n: number }>(
    'SELECT c.control_state, COUNT(*) AS n FROM conversations c JOIN bots b ON b.id = c.bot_id WHERE b.preview_of IS NULL GROUP BY c.control_state',
  );
  for (const row of rows) counts[names[Number(row.control_state)] ?? 'bot'] += Number(row.n);
  return counts;
}

/**
 * Deleting a conversation takes its history, shares and outbox rows with it (ON DELETE CASCADE).
 * It is how a conversation is forgotten; what is left of the rows in the files (SQLite's
 * write-ahead log) goes with the store's `eraseDeleted` afterwards. docs/limits.md "Forgetting".
 */
export async function removeConversation(db: Queryable, id: number): Promise<void> {
  await db.run('DELETE FROM conversations WHERE id = $1', [id]);
}

export async function forgettingConversationIds(db: Queryable): Promise<number[]> {
  const rows = await db.all<{ id: number }>('SELECT id FROM conversations WHERE forgetting = 1');
  return rows.map((r) => Number(r.id));
}

/**
 * The operator console's list: conversations of these bots (not being forgotten), operator
 * requested first, then taken over, then by last activity. The last message comes from the
 * (conversation_id, id) index, so the cost grows with the number of conversations, not messages.
 * A conversation waiting for a person shows the visitor's last message (their problem), not the
 * bot's "a colleague will be with you" (issue 37 item 2).
 */
export async function conversationsOfBots(db: Queryable, botIds: string[], limit: number): Promise<ConversationListing[]> {
  if (botIds.length === 0) return [];
  const placeholders = botIds.map((_, i) => `$${i + 2}`).join(', ');
  const rows = await db.all<ConversationRow & { last_activity: number; last_parts: string | null }>(
    `SELECT c.*,
       COALESCE((SELECT m.created_at FROM messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1), c.created_at) AS last_activity,
       COALESCE(
         CASE WHEN c.control_state = 1 THEN (SELECT m.parts FROM messages m WHERE m.conversation_id = c.id AND m.direction = 'USER' ORDER BY m.id DESC LIMIT 1) END,
         (SELECT m.parts FROM messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1)
       ) AS last_parts
     FROM conversations c
     WHERE c.forgetting = 0 AND c.bot_id IN (${placeholders})
     ORDER BY CASE c.control_state WHEN 1 THEN 0 WHEN 2 THEN 1 ELSE 2 END, last_activity DESC, c.id DESC
     LIMIT $1`,
    [limit, ...botIds],
  );
  return rows.map((r) => ({
    ...toConversation(r),
    lastActivity: Number(r.last_activity),
    lastParts: r.last_parts ? (JSON.parse(r.last_parts) as ReplyPart[]) : [],
  }));
}

/** The last `limit` messages with who said them (the console labels operator and user lines). */
export async function storedMessages(db: Queryable, conversationId: number, limit: number): Promise<StoredMessage[]> {
  const rows = await db.all<{ direction: string; parts: string; created_at: number }>('SELECT direction, parts, created_at FROM messages WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2', [
    conversationId,
    limit,
  ]);
  return rows.reverse().map((r) => ({ direction: r.direction as Direction, parts: JSON.parse(r.parts) as ReplyPart[], createdAt: Number(r.created_at) }));
}
