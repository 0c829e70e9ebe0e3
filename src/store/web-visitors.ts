// Web visitors (migration 020): the context a visitor's page sent, their other conversations, and
// where a waiting conversation stands in its account's queue.
import type { EarlierConversation, WebVisitorContext, WebVisitorRecord } from '../channels/web/model.js';
import type { Queryable } from './driver.js';

interface VisitorRow {
  conversation_id: number;
  visitor_id: string | null;
  page_url: string | null;
  user_agent: string | null;
  language: string | null;
  seen_at: number;
}

/** The control state of a conversation that waits for a person (control-machine.ts). */
const REQUESTED = 1;

export function webVisitorRepository(db: Queryable) {
  return {
    /** Records what the page said now (each start or resume); the newest wins. */
    async note(conversationId: number, botId: string, c: WebVisitorContext, at: number): Promise<void> {
      await db.run(
        `INSERT INTO web_contacts (conversation_id, bot_id, visitor_id, page_url, user_agent, language, seen_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (conversation_id) DO UPDATE SET visitor_id = COALESCE(excluded.visitor_id, web_contacts.visitor_id), page_url = excluded.page_url,
           user_agent = excluded.user_agent, language = excluded.language, seen_at = excluded.seen_at`,
        [conversationId, botId, c.visitorId, c.pageUrl, c.userAgent, c.language, at],
      );
    },
    async of(conversationId: number): Promise<WebVisitorRecord | null> {
      const r = await db.get<VisitorRow>('SELECT * FROM web_contacts WHERE conversation_id = $1', [conversationId]);
      if (!r) return null;
      return { conversationId: Number(r.conversation_id), visitorId: r.visitor_id, pageUrl: r.page_url, userAgent: r.user_agent, language: r.language, seenAt: Number(r.seen_at) };
    },
    /** The visitor's other conversations on this bot, newest first. */
    async earlier(botId: string, visitorId: string, exceptConversationId: number, limit: number): Promise<EarlierConversation[]> {
      const rows = await db.all<{ user_id: string; created_at: number; updated_at: number; control_state: number }>(
        `SELECT c.user_id, c.created_at, c.updated_at, c.control_state FROM web_contacts w JOIN conversations c ON c.id = w.conversation_id
         WHERE w.bot_id = $1 AND w.visitor_id = $2 AND w.conversation_id <> $3 ORDER BY c.updated_at DESC LIMIT $4`,
        [botId, visitorId, exceptConversationId, limit],
      );
      return rows.map((r) => ({ userId: r.user_id, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at), controlState: Number(r.control_state) }));
    },
    /**
     * 1 + how many of the account's conversations have waited for a person longer than this one
     * (operators serve the account's bots together); null when it does not wait. A designer's
     * preview conversation (its bot a preview twin) waits in no queue.
     */
    async queuePosition(accountId: string, conversationId: number): Promise<number | null> {
      const row = await db.get<{ n: number | null }>(
        `SELECT (SELECT COUNT(*) FROM conversations o JOIN bots b ON b.id = o.bot_id
                 WHERE b.account_id = $1 AND b.preview_of IS NULL AND o.control_state = $3 AND (o.control_changed_at < c.control_changed_at OR (o.control_changed_at = c.control_changed_at AND o.id <= c.id))) AS n
         FROM conversations c WHERE c.id = $2 AND c.control_state = $3`,
        [accountId, conversationId, REQUESTED],
      );
      return row?.n == null ? null : Number(row.n);
    },
    /** Sets (or clears, null) an operator's picture; false when the account has no such operator. */
    async setOperatorAvatar(accountId: string, operatorId: string, url: string | null): Promise<boolean> {
      return (await db.run('UPDATE operators SET avatar_url = $3 WHERE account_id = $1 AND id = $2', [accountId, operatorId, url])) > 0;
    },
    async operatorAvatar(accountId: string, email: string): Promise<string | null> {
      const row = await db.get<{ avatar_url: string | null }>('SELECT avatar_url FROM operators WHERE account_id = $1 AND email = $2', [accountId, email]);
      return row?.avatar_url ?? null;
    },
  };
}

export type WebVisitorRepository = ReturnType<typeof webVisitorRepository>;
