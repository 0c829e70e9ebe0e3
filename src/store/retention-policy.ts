// What a bot's retention policy reads and marks (conversations/retention-policy.ts): the bots that
// have one, how many of their conversations are due, and one bounded batch of them marked
// `forgetting` (the mark `state=forget` sets; the forget path deletes what is marked). The mark
// moves the revision on, so a turn that read the conversation before cannot save over it. The
// outer `forgetting = 0` is checked again on the row PostgreSQL locks: two nodes running the same
// pass never both mark (and count) one conversation.
import type { BotRecord } from '../bots/model.js';
import type { DueRule, MarkedConversation } from '../conversations/governance-port.js';
import type { Queryable } from './driver.js';

/** Taken over (an operator holds it, state 2): kept until handed back. */
const HELD = 2;
const DUE = `bot_id = $1 AND forgetting = 0 AND control_state <> ${HELD} AND (updated_at < $2 OR created_at < $3)`;

export function retentionPolicyRepository(db: Queryable) {
  return {
    /** Bots whose settings name a retention policy (the text test narrows; the caller reads the numbers). */
    async botsWithRetention(): Promise<Array<{ id: string; accountId: string; settings: BotRecord['settings'] }>> {
      const rows = await db.all<{ id: string; account_id: string; settings: string }>(`SELECT id, account_id, settings FROM bots WHERE settings LIKE '%"retention"%'`);
      return rows.map((r) => ({ id: r.id, accountId: r.account_id, settings: JSON.parse(r.settings) }));
    },
    async countDue(botId: string, rule: DueRule): Promise<number> {
      const row = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM conversations WHERE ${DUE}`, [botId, rule.idleBefore, rule.createdBefore]);
      return Number(row?.n ?? 0);
    },
    async markDue(botId: string, rule: DueRule, limit: number): Promise<MarkedConversation[]> {
      const rows = await db.all<{ id: number | string; bot_id: string; user_id: string; channel: string }>(
        `UPDATE conversations SET forgetting = 1, revision = revision + 1
         WHERE forgetting = 0 AND id IN (SELECT id FROM conversations WHERE ${DUE} ORDER BY id LIMIT $4) RETURNING id, bot_id, user_id, channel`,
        [botId, rule.idleBefore, rule.createdBefore, limit],
      );
      return rows.map((r) => ({ id: Number(r.id), botId: r.bot_id, userId: r.user_id, channel: r.channel }));
    },
  };
}
