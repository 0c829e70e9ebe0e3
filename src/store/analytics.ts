// Per-bot analytics (docs/analytics.md): counts per UTC day of one bot's rows within a period.
// Times are integer milliseconds in both databases, so a day is `created_at / 86400000` (integer
// division in SQLite and PostgreSQL alike) and the bucketing needs no dialect-specific date
// function. Each query reads one bot's rows through a (bot, time) index of migration 10.
import type { CsatCount, DayCount, DayDirectionCount, KnowledgeDay, Period, StandingCount, TranscriptRow, WaitRow } from '../analytics/model.js';
import { DAY_MS } from '../shared/durations.js';
import type { Queryable } from './driver.js';

/** drop-off lists the interactions where most conversations stand, at most this many */
export const DROP_OFF_LIMIT = 50;

const perDay = (rows: { day: number; n: number }[]): DayCount[] => rows.map((r) => ({ day: Number(r.day), count: Number(r.n) }));

export function analyticsRepository(db: Queryable) {
  /** The position stored in the conversation's state JSON (engine/types.ts ConversationState). */
  const position = (field: 'behaviour' | 'interaction') => (db.dialect === 'sqlite' ? `json_extract(state, '$.position.${field}')` : `((state::json) -> 'position' ->> '${field}')`);

  return {
    async conversationsStarted(botId: string, p: Period): Promise<DayCount[]> {
      return perDay(
        await db.all(
          `SELECT created_at / ${DAY_MS} AS day, COUNT(*) AS n FROM conversations
           WHERE bot_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY 1`,
          [botId, p.from, p.to],
        ),
      );
    },
    /** Stored messages by who said them (USER, BOT, OPERATOR). */
    async messages(botId: string, p: Period): Promise<DayDirectionCount[]> {
      const rows = await db.all<{ day: number; direction: string; n: number }>(
        `SELECT m.created_at / ${DAY_MS} AS day, m.direction AS direction, COUNT(*) AS n
         FROM conversations c JOIN messages m ON m.conversation_id = c.id
         WHERE c.bot_id = $1 AND m.created_at >= $2 AND m.created_at < $3 GROUP BY 1, 2 ORDER BY 1, 2`,
        [botId, p.from, p.to],
      );
      return rows.map((r) => ({ day: Number(r.day), direction: r.direction, count: Number(r.n) }));
    },
    /** Conversations that first reached "requested" or "operator" on each day. */
    async handOvers(botId: string, p: Period): Promise<DayCount[]> {
      return perDay(
        await db.all(
          `SELECT handed_over_at / ${DAY_MS} AS day, COUNT(*) AS n FROM conversations
           WHERE bot_id = $1 AND handed_over_at >= $2 AND handed_over_at < $3 GROUP BY 1 ORDER BY 1`,
          [botId, p.from, p.to],
        ),
      );
    },
    async missedTexts(botId: string, p: Period): Promise<DayCount[]> {
      return perDay(
        await db.all(
          `SELECT created_at / ${DAY_MS} AS day, COUNT(*) AS n FROM missed_texts
           WHERE bot_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY 1`,
          [botId, p.from, p.to],
        ),
      );
    },
    /** Adds a turn's knowledge questions to its bot's count of the day (migration 017). */
    async countKnowledgeQuestions(botId: string, day: number, answered: number, unanswered: number): Promise<void> {
      await db.run(
        `INSERT INTO knowledge_questions (bot_id, day, answered, unanswered) VALUES ($1, $2, $3, $4)
         ON CONFLICT (bot_id, day) DO UPDATE SET answered = knowledge_questions.answered + excluded.answered, unanswered = knowledge_questions.unanswered + excluded.unanswered`,
        [botId, day, answered, unanswered],
      );
    },
    async knowledgeQuestions(botId: string, p: Period): Promise<KnowledgeDay[]> {
      const rows = await db.all<{ day: number; answered: number; unanswered: number }>(
        'SELECT day, answered, unanswered FROM knowledge_questions WHERE bot_id = $1 AND day >= $2 AND day < $3 ORDER BY day',
        [botId, Math.floor(p.from / DAY_MS), Math.ceil(p.to / DAY_MS)],
      );
      return rows.map((r) => ({ day: Number(r.day), answered: Number(r.answered), unanswered: Number(r.unanswered) }));
    },
    /**
     * Where conversations last active in the period stand, counting only those idle since before
     * `idleBefore`: the interactions they stopped at, most frequent first.
     */
    async standing(botId: string, p: Period, idleBefore: number): Promise<StandingCount[]> {
      const rows = await db.all<{ behaviour: string | null; interaction: string | null; n: number }>(
        `SELECT ${position('behaviour')} AS behaviour, ${position('interaction')} AS interaction, COUNT(*) AS n
         FROM conversations
         WHERE bot_id = $1 AND updated_at >= $2 AND updated_at < $3 AND updated_at < $4 AND forgetting = 0
         GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT $5`,
        [botId, p.from, p.to, idleBefore, DROP_OFF_LIMIT],
      );
      return rows.map((r) => ({ behaviour: r.behaviour ?? null, interaction: r.interaction ?? null, count: Number(r.n) }));
    },
    /**
     * The waits for a person that began in the period (analytics_events, migration 21), oldest
     * first (`newest`: newest first), at most `limit`: each with its takeover (when the next state
     * change was one) and the operator's first message.
     */
    async waits(botId: string, p: Period, limit: number, order: 'oldest' | 'newest' = 'oldest'): Promise<WaitRow[]> {
      const rows = await db.all<{ requested_at: number; next_state: number | null; next_at: number | null; answered_at: number | null }>(
        `SELECT r.at AS requested_at,
           (SELECT n.value FROM analytics_events n WHERE n.conversation_id = r.conversation_id AND n.kind = 'state' AND n.id > r.id ORDER BY n.id LIMIT 1) AS next_state,
           (SELECT n.at FROM analytics_events n WHERE n.conversation_id = r.conversation_id AND n.kind = 'state' AND n.id > r.id ORDER BY n.id LIMIT 1) AS next_at,
           (SELECT MIN(m.created_at) FROM messages m WHERE m.conversation_id = r.conversation_id AND m.direction = 'OPERATOR' AND m.created_at >= r.at
              AND m.created_at < COALESCE((SELECT MIN(q.at) FROM analytics_events q WHERE q.conversation_id = r.conversation_id AND q.kind = 'state' AND q.value = 1 AND q.id > r.id), $4)) AS answered_at
         FROM analytics_events r
         WHERE r.bot_id = $1 AND r.kind = 'state' AND r.value = 1 AND r.at >= $2 AND r.at < $3
         ORDER BY ${order === 'newest' ? 'r.at DESC, r.id DESC' : 'r.at, r.id'} LIMIT $5`,
        [botId, p.from, p.to, Number.MAX_SAFE_INTEGER, limit],
      );
      return rows.map((r) => ({
        requestedAt: Number(r.requested_at),
        takenAt: r.next_state !== null && Number(r.next_state) === 2 ? Number(r.next_at) : null,
        answeredAt: r.answered_at === null ? null : Number(r.answered_at),
      }));
    },
    /** The newest event's id (0: none): where the next look for conversations over their cap starts. */
    async lastEventId(): Promise<number> {
      const row = await db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM analytics_events');
      return Number(row?.id ?? 0);
    },
    /** Conversations with an event after `afterId` that hold more than `keep` events. */
    async conversationsOverEvents(afterId: number, keep: number): Promise<number[]> {
      const rows = await db.all<{ conversation_id: number }>(
        `SELECT conversation_id FROM analytics_events
         WHERE conversation_id IN (SELECT DISTINCT conversation_id FROM analytics_events WHERE id > $1)
         GROUP BY conversation_id HAVING COUNT(*) > $2`,
        [afterId, keep],
      );
      return rows.map((r) => Number(r.conversation_id));
    },
    /** Keeps a conversation's newest `keep` events; how many went. */
    async keepNewestEvents(conversationId: number, keep: number): Promise<number> {
      const edge = await db.get<{ id: number }>('SELECT id FROM analytics_events WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2', [conversationId, keep]);
      if (!edge) return 0;
      return db.run('DELETE FROM analytics_events WHERE conversation_id = $1 AND id <= $2', [conversationId, Number(edge.id)]);
    },
    async addCsat(answer: { conversationId: number; botId: string; rating: number; at: number }): Promise<void> {
      await db.run(`INSERT INTO analytics_events (conversation_id, bot_id, kind, value, at) VALUES ($1, $2, 'csat', $3, $4)`, [answer.conversationId, answer.botId, answer.rating, answer.at]);
    },
    /** CSAT answers (the `csat` variable set to 1..5) per day and rating. */
    async csat(botId: string, p: Period): Promise<CsatCount[]> {
      const rows = await db.all<{ day: number; rating: number; n: number }>(
        `SELECT at / ${DAY_MS} AS day, value AS rating, COUNT(*) AS n FROM analytics_events
         WHERE bot_id = $1 AND kind = 'csat' AND at >= $2 AND at < $3 GROUP BY 1, 2 ORDER BY 1, 2`,
        [botId, p.from, p.to],
      );
      return rows.map((r) => ({ day: Number(r.day), rating: Number(r.rating), count: Number(r.n) }));
    },
    /**
     * A page of the messages written in the period, in (conversation, message) order after
     * `after`: an export reads the bot's transcripts page by page, never all at once.
     */
    async transcriptPage(botId: string, p: Period, after: { conversationId: number; messageId: number }, limit: number): Promise<TranscriptRow[]> {
      const rows = await db.all<{ conversation_id: number; message_id: number; user_id: string; channel: string; direction: string; parts: string; created_at: number }>(
        `SELECT m.conversation_id AS conversation_id, m.id AS message_id, c.user_id AS user_id, c.channel AS channel, m.direction AS direction,
           m.parts AS parts, m.created_at AS created_at
         FROM conversations c JOIN messages m ON m.conversation_id = c.id
         WHERE c.bot_id = $1 AND m.created_at >= $2 AND m.created_at < $3 AND (m.conversation_id > $4 OR (m.conversation_id = $4 AND m.id > $5))
         ORDER BY m.conversation_id, m.id LIMIT $6`,
        [botId, p.from, p.to, after.conversationId, after.messageId, limit],
      );
      return rows.map((r) => ({
        conversationId: Number(r.conversation_id),
        messageId: Number(r.message_id),
        userId: r.user_id,
        channel: r.channel,
        direction: r.direction,
        parts: r.parts,
        createdAt: Number(r.created_at),
      }));
    },
  };
}
