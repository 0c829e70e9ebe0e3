// Approvals of agents' tool calls (migration 031, agents.md "Tools"): written with the turn that
// asked, listed pending first, and decided once: the decision is a conditional UPDATE (status
// still 'pending'), so of two nodes deciding the same approval at the same time one wins.
import type { ApprovalAskedRow, ApprovalDecisionRow, ApprovalRecord, ApprovalStatus } from '../conversations/model.js';
import type { AgentMessage } from '../engine/types.js';
import type { Queryable } from './driver.js';

interface ApprovalRow {
  id: number | string;
  conversation_id: number | string;
  user_id: string;
  call_id: string;
  tool: string;
  arguments: string;
  turn: string;
  status: string;
  decided_by: string | null;
  reason: string | null;
  at: number | string;
  decided_at: number | string | null;
}

const COLUMNS = 'a.id, a.conversation_id, c.user_id, a.call_id, a.tool, a.arguments, a.turn, a.status, a.decided_by, a.reason, a.at, a.decided_at';
const FROM = 'agent_approvals a JOIN conversations c ON c.id = a.conversation_id';

function parsed<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

function toRecord(r: ApprovalRow): ApprovalRecord {
  return {
    id: Number(r.id),
    conversationId: Number(r.conversation_id),
    userId: r.user_id,
    callId: r.call_id,
    tool: r.tool,
    arguments: parsed<Record<string, unknown>>(r.arguments, {}),
    turn: parsed<AgentMessage[]>(r.turn, []),
    status: r.status as ApprovalStatus,
    decidedBy: r.decided_by,
    reason: r.reason,
    at: Number(r.at),
    decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  };
}

export function agentApprovalRepository(db: Queryable) {
  return {
    /** A pending approval, written in the turn's transaction. */
    async add(row: ApprovalAskedRow): Promise<void> {
      await db.run('INSERT INTO agent_approvals (conversation_id, bot_id, call_id, tool, arguments, turn, at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        row.conversationId,
        row.botId,
        row.callId,
        row.tool,
        JSON.stringify(row.arguments),
        JSON.stringify(row.turn),
        row.at,
      ]);
    },
    /** The bot's approvals, or one conversation's (`userId`), pending first (oldest first: the longest waiting), then the latest decided. */
    async list(botId: string, limit: number, userId?: string): Promise<ApprovalRecord[]> {
      const rows = await db.all<ApprovalRow>(
        `SELECT ${COLUMNS} FROM ${FROM} WHERE a.bot_id = $1 AND c.forgetting = 0${userId === undefined ? '' : ' AND c.user_id = $3'}
         ORDER BY CASE WHEN a.status = 'pending' THEN 0 ELSE 1 END, CASE WHEN a.status = 'pending' THEN a.id ELSE -a.id END LIMIT $2`,
        userId === undefined ? [botId, limit] : [botId, limit, userId],
      );
      return rows.map(toRecord);
    },
    /** One of the bot's approvals (a forgotten conversation's is none). */
    async byId(botId: string, id: number): Promise<ApprovalRecord | null> {
      const row = await db.get<ApprovalRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.bot_id = $1 AND a.id = $2 AND c.forgetting = 0`, [botId, id]);
      return row ? toRecord(row) : null;
    },
    /** The conversation's pending approvals, oldest first (the console shows them in the conversation). */
    async pendingOf(conversationId: number, limit: number): Promise<ApprovalRecord[]> {
      const rows = await db.all<ApprovalRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.conversation_id = $1 AND a.status = 'pending' ORDER BY a.id LIMIT $2`, [conversationId, limit]);
      return rows.map(toRecord);
    },
    /** How many approvals wait in each of these conversations (none: not in the map); the console's list badges them. */
    async pendingCounts(conversationIds: number[]): Promise<Map<number, number>> {
      if (conversationIds.length === 0) return new Map();
      const placeholders = conversationIds.map((_, i) => `$${i + 1}`).join(', ');
      const rows = await db.all<{ conversation_id: number | string; pending: number | string }>(
        `SELECT conversation_id, COUNT(*) AS pending FROM agent_approvals WHERE status = 'pending' AND conversation_id IN (${placeholders}) GROUP BY conversation_id`,
        conversationIds,
      );
      return new Map(rows.map((r) => [Number(r.conversation_id), Number(r.pending)]));
    },
    /** Decides a pending approval; false when it was decided already (by this node or another). */
    async decide(botId: string, id: number, d: ApprovalDecisionRow): Promise<boolean> {
      const changed = await db.run(`UPDATE agent_approvals SET status = $1, decided_by = $2, reason = $3, arguments = $4, decided_at = $5 WHERE bot_id = $6 AND id = $7 AND status = 'pending'`, [
        d.status,
        d.decidedBy,
        d.reason,
        JSON.stringify(d.arguments),
        d.at,
        botId,
        id,
      ]);
      return changed === 1;
    },
  };
}
