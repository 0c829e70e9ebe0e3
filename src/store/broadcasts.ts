// Broadcasts and their recipients in SQL (migration 018). Every state change of a recipient is
// one conditional UPDATE (status and claim checked in its WHERE), so whichever node or request
// gets there first wins and the others change nothing.
import type { AudienceCandidate, BroadcastRecord, BroadcastSpec, BroadcastStatus, ClaimedRecipient, NewRecipient, RecipientCounts } from '../broadcasts/model.js';
import type { BroadcastMessageButton } from '../conversations/model.js';
import type { Queryable, SqlValue } from './driver.js';

interface Row {
  id: string;
  bot_id: string;
  name: string;
  spec: string;
  status: string;
  at: number;
  next_run_at: number | null;
  run: number;
  claimed_until: number;
  claimed_by: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

const toRecord = (r: Row): BroadcastRecord => ({
  id: r.id,
  botId: r.bot_id,
  name: r.name,
  spec: JSON.parse(r.spec) as BroadcastSpec,
  status: r.status as BroadcastStatus,
  at: Number(r.at),
  nextRunAt: r.next_run_at === null ? null : Number(r.next_run_at),
  run: Number(r.run),
  claimedUntil: Number(r.claimed_until),
  claimedBy: r.claimed_by,
  error: r.error,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const COLUMNS = 'id, bot_id, name, spec, status, at, next_run_at, run, claimed_until, claimed_by, error, created_at, updated_at';
/** rows per INSERT of recipients (5 parameters each, far below either database's limit) */
const INSERT_CHUNK = 500;

interface CandidateRow {
  id: number;
  user_id: string;
  channel: string;
  state: string;
  control_state: number;
  ban_expiration: string | null;
  forgetting: number;
  created_at: number;
  last_user_at: number | null;
}

export function broadcastRepository(db: Queryable) {
  const lastUser = "(SELECT MAX(m.created_at) FROM messages m WHERE m.conversation_id = c.id AND m.direction = 'USER')";
  const toCandidate = (r: CandidateRow): AudienceCandidate => {
    const state = JSON.parse(r.state) as { variables?: Record<string, string>; tags?: string[] };
    return {
      conversationId: Number(r.id),
      userId: r.user_id,
      channel: r.channel,
      state: { variables: state.variables ?? {}, tags: state.tags ?? [] },
      controlState: Number(r.control_state) as AudienceCandidate['controlState'],
      banExpiration: r.ban_expiration,
      forgetting: Number(r.forgetting) === 1,
      lastUserAt: Number(r.last_user_at ?? r.created_at),
    };
  };
  return {
    async insert(b: BroadcastRecord): Promise<void> {
      await db.run(`INSERT INTO broadcasts (${COLUMNS}, notice, notice_attempts, notice_due) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULL, 0, 0)`, [
        b.id,
        b.botId,
        b.name,
        JSON.stringify(b.spec),
        b.status,
        b.at,
        b.nextRunAt,
        b.run,
        b.claimedUntil,
        b.claimedBy,
        b.error,
        b.createdAt,
        b.updatedAt,
      ]);
    },
    async byId(botId: string, id: string): Promise<BroadcastRecord | null> {
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM broadcasts WHERE bot_id = $1 AND id = $2`, [botId, id]);
      return row ? toRecord(row) : null;
    },
    async byBot(botId: string, limit: number): Promise<BroadcastRecord[]> {
      const rows = await db.all<Row>(`SELECT ${COLUMNS} FROM broadcasts WHERE bot_id = $1 ORDER BY created_at DESC, id LIMIT $2`, [botId, limit]);
      return rows.map(toRecord);
    },
    /** Broadcasts of the bot that are still to run or running. */
    /**
     * Inserts `b` unless its bot already has `max` broadcasts scheduled or running; false then.
     * Run it in a transaction: on PostgreSQL concurrent creates for one bot queue on the bot's row
     * (SQLite has one writer), so the count and the insert are one step and the cap holds.
     */
    async insertWithin(b: BroadcastRecord, max: number): Promise<boolean> {
      if (db.dialect === 'postgres') await db.get('SELECT id FROM bots WHERE id = $1 FOR UPDATE', [b.botId]);
      if ((await this.activeCount(b.botId)) >= max) return false;
      await this.insert(b);
      return true;
    },
    async activeCount(botId: string): Promise<number> {
      const row = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM broadcasts WHERE bot_id = $1 AND status IN ('scheduled', 'running')", [botId]);
      return Number(row?.n ?? 0);
    },
    /**
     * Leases up to `limit` broadcasts that need driving (running, or scheduled and due) to `node`
     * until `until`: free ones, or this node's own (renewed). On PostgreSQL the candidates are
     * locked with SKIP LOCKED, so two nodes never lease the same one at once.
     */
    async lease(node: string, now: number, until: number, limit: number): Promise<BroadcastRecord[]> {
      const due = `SELECT id FROM broadcasts
        WHERE (status = 'running' OR (status = 'scheduled' AND next_run_at <= $1)) AND (claimed_until <= $1 OR claimed_by = $2)
        ORDER BY next_run_at LIMIT $4`;
      const sql =
        db.dialect === 'postgres'
          ? `WITH picked AS MATERIALIZED (${due} FOR UPDATE SKIP LOCKED)
             UPDATE broadcasts b SET claimed_until = $3, claimed_by = $2 FROM picked WHERE b.id = picked.id RETURNING ${COLUMNS.split(', ')
               .map((c) => `b.${c}`)
               .join(', ')}`
          : `UPDATE broadcasts SET claimed_until = $3, claimed_by = $2 WHERE id IN (${due}) RETURNING ${COLUMNS}`;
      const rows = await db.all<Row>(sql, [now, node, until, limit]);
      return rows.map(toRecord);
    },
    /** Gives a lease back (this node stops). */
    async release(node: string): Promise<void> {
      await db.run('UPDATE broadcasts SET claimed_until = 0, claimed_by = NULL WHERE claimed_by = $1', [node]);
    },
    /** Changes a broadcast's status (and what goes with it) while `node` holds its lease (null: any live broadcast); false if not. */
    async update(id: string, node: string | null, change: { status: BroadcastStatus; run?: number; nextRunAt?: number | null; error?: string | null }, now: number): Promise<boolean> {
      const params: SqlValue[] = [id, change.status, now];
      const fields: string[] = ['status = $2', 'updated_at = $3'];
      if (change.run !== undefined) fields.push(`run = $${params.push(change.run)}`);
      if (change.nextRunAt !== undefined) fields.push(`next_run_at = $${params.push(change.nextRunAt)}`);
      if (change.error !== undefined) fields.push(`error = $${params.push(change.error)}`);
      const lease = node === null ? '' : `AND claimed_by = $${params.push(node)}`;
      return (await db.run(`UPDATE broadcasts SET ${fields.join(', ')} WHERE id = $1 AND status IN ('scheduled', 'running') ${lease}`, params)) > 0;
    },
    async addRecipients(broadcastId: string, run: number, recipients: NewRecipient[]): Promise<void> {
      for (let i = 0; i < recipients.length; i += INSERT_CHUNK) {
        // SQLite's driver is synchronous: between chunks other requests run (100,000 rows held
        // the event loop 0.3 s); writers still wait for this transaction, readers do not
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        const chunk = recipients.slice(i, i + INSERT_CHUNK);
        const params: SqlValue[] = [broadcastId, run];
        const values = chunk.map((r) => `($1, $2, $${params.push(r.conversationId)}, $${params.push(r.channel)}, $${params.push(r.dueAt)}, 'pending', 0)`);
        await db.run(`INSERT INTO broadcast_recipients (broadcast_id, run, conversation_id, channel, due_at, status, claimed_until) VALUES ${values.join(', ')} ON CONFLICT DO NOTHING`, params);
      }
    },
    /** Claims up to `limit` due, pending recipients of one channel for one attempt each, until `until`. */
    async claimRecipients(broadcastId: string, run: number, channel: string, now: number, until: number, limit: number): Promise<ClaimedRecipient[]> {
      const due = `SELECT conversation_id FROM broadcast_recipients
        WHERE broadcast_id = $1 AND run = $2 AND status = 'pending' AND channel = $3 AND due_at <= $4 AND claimed_until <= $4
        ORDER BY conversation_id LIMIT $5`;
      // PostgreSQL: picked once (a materialized CTE; a LIMIT subquery in the WHERE may run again and
      // claim more), locked with SKIP LOCKED so that two nodes never claim the same recipient
      const sql =
        db.dialect === 'postgres'
          ? `WITH picked AS MATERIALIZED (${due} FOR UPDATE SKIP LOCKED)
             UPDATE broadcast_recipients r SET claimed_until = $6 FROM picked
             WHERE r.broadcast_id = $1 AND r.run = $2 AND r.conversation_id = picked.conversation_id RETURNING r.conversation_id`
          : `UPDATE broadcast_recipients SET claimed_until = $6 WHERE broadcast_id = $1 AND run = $2 AND conversation_id IN (${due}) RETURNING conversation_id`;
      const rows = await db.all<{ conversation_id: number }>(sql, [broadcastId, run, channel, now, limit, until]);
      if (rows.length === 0) return [];
      const ids = rows.map((r) => Number(r.conversation_id));
      const users = await db.all<{ id: number; user_id: string }>(`SELECT id, user_id FROM conversations WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`, ids);
      const userOf = new Map(users.map((u) => [Number(u.id), u.user_id]));
      return ids
        .sort((a, b) => a - b)
        .filter((id) => userOf.has(id))
        .map((id) => ({ broadcastId, run, conversationId: id, userId: userOf.get(id)!, channel, claimedUntil: until }));
    },
    /** pending → sent under the recipient's claim, in the transaction of its turn; false: someone else decided it. */
    async markSent(r: Pick<ClaimedRecipient, 'broadcastId' | 'run' | 'conversationId' | 'claimedUntil'>, now: number, delivered = false): Promise<boolean> {
      const changed = await db.run(
        "UPDATE broadcast_recipients SET status = $6, sent_at = $4 WHERE broadcast_id = $1 AND run = $2 AND conversation_id = $3 AND status = 'pending' AND claimed_until = $5",
        [r.broadcastId, r.run, r.conversationId, now, r.claimedUntil, delivered ? 'delivered' : 'sent'],
      );
      return changed > 0;
    },
    /** pending → skipped or failed (no turn was committed for it), under its claim. */
    async markUnsent(r: Pick<ClaimedRecipient, 'broadcastId' | 'run' | 'conversationId' | 'claimedUntil'>, status: 'skipped' | 'failed', reason: string): Promise<boolean> {
      const changed = await db.run(
        "UPDATE broadcast_recipients SET status = $4, reason = $5 WHERE broadcast_id = $1 AND run = $2 AND conversation_id = $3 AND status = 'pending' AND claimed_until = $6",
        [r.broadcastId, r.run, r.conversationId, status, reason, r.claimedUntil],
      );
      return changed > 0;
    },
    /** Every recipient not reached yet is skipped (cancel). */
    async skipPending(broadcastId: string, reason: string): Promise<number> {
      return db.run("UPDATE broadcast_recipients SET status = 'skipped', reason = $2 WHERE broadcast_id = $1 AND status = 'pending'", [broadcastId, reason]);
    },
    /** How one of the outbox rows of a recipient's turn went (`tag`: `<broadcast id>:<run>`). */
    async noteDelivery(tag: string, conversationId: number, ok: boolean, reason: string | null): Promise<void> {
      const cut = tag.lastIndexOf(':');
      const [broadcastId, run] = [tag.slice(0, cut), Number(tag.slice(cut + 1))];
      if (ok) {
        await db.run("UPDATE broadcast_recipients SET status = 'delivered' WHERE broadcast_id = $1 AND run = $2 AND conversation_id = $3 AND status = 'sent'", [broadcastId, run, conversationId]);
      } else {
        await db.run("UPDATE broadcast_recipients SET status = 'failed', reason = $4 WHERE broadcast_id = $1 AND run = $2 AND conversation_id = $3 AND status IN ('sent', 'delivered')", [
          broadcastId,
          run,
          conversationId,
          reason,
        ]);
      }
    },
    /** A button of the broadcast's own message (a click on it), when the broadcast is the bot's and has it. */
    async messageButton(botId: string, id: string, index: number): Promise<BroadcastMessageButton | null> {
      const row = await db.get<{ spec: string }>('SELECT spec FROM broadcasts WHERE bot_id = $1 AND id = $2', [botId, id]);
      return row ? ((JSON.parse(row.spec) as BroadcastSpec).Message?.Buttons?.[index] ?? null) : null;
    },
    /** The behaviour a broadcast runs (a click on one of its buttons counts for it). */
    async behaviourOf(id: string): Promise<string | null> {
      const row = await db.get<{ spec: string }>('SELECT spec FROM broadcasts WHERE id = $1', [id]);
      return row ? ((JSON.parse(row.spec) as BroadcastSpec).Behaviour ?? null) : null;
    },
    /** A click on one of the broadcast's buttons, in the conversation's latest run of it that reached it. */
    async noteClick(broadcastId: string, conversationId: number, now: number): Promise<void> {
      await db.run(
        `UPDATE broadcast_recipients SET clicked_at = $3 WHERE broadcast_id = $1 AND conversation_id = $2 AND clicked_at IS NULL AND sent_at IS NOT NULL
           AND run = (SELECT MAX(run) FROM broadcast_recipients WHERE broadcast_id = $1 AND conversation_id = $2 AND sent_at IS NOT NULL)`,
        [broadcastId, conversationId, now],
      );
    },
    async counts(broadcastId: string, run: number): Promise<RecipientCounts> {
      const row = await db.get<Record<string, number | null>>(
        `SELECT COUNT(*) AS audience,
           SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,
           SUM(CASE WHEN sent_at IS NOT NULL THEN 1 ELSE 0 END) AS sent,
           SUM(CASE WHEN status = 'delivered' THEN 1 ELSE 0 END) AS delivered,
           SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
           SUM(CASE WHEN status = 'skipped' THEN 1 ELSE 0 END) AS skipped,
           SUM(CASE WHEN clicked_at IS NOT NULL THEN 1 ELSE 0 END) AS clicked
         FROM broadcast_recipients WHERE broadcast_id = $1 AND run = $2`,
        [broadcastId, run],
      );
      const reasons = await db.all<{ reason: string; n: number }>(
        'SELECT reason, COUNT(*) AS n FROM broadcast_recipients WHERE broadcast_id = $1 AND run = $2 AND reason IS NOT NULL GROUP BY reason ORDER BY reason',
        [broadcastId, run],
      );
      const n = (key: string) => Number(row?.[key] ?? 0);
      return {
        Audience: n('audience'),
        Pending: n('pending'),
        Sent: n('sent'),
        Delivered: n('delivered'),
        Failed: n('failed'),
        Skipped: n('skipped'),
        Clicked: n('clicked'),
        Reasons: Object.fromEntries(reasons.map((r) => [r.reason, Number(r.n)])),
      };
    },
    /** Conversations of the bot after `afterId`, in id order, with what audiences read (`userIds`: only these). */
    async candidates(botId: string, afterId: number, limit: number, userIds?: string[]): Promise<AudienceCandidate[]> {
      const params: SqlValue[] = [botId, afterId, limit];
      const only = userIds ? `AND c.user_id IN (${userIds.map((u) => `$${params.push(u)}`).join(', ')})` : '';
      const rows = await db.all<CandidateRow>(
        `SELECT c.id, c.user_id, c.channel, c.state, c.control_state, c.ban_expiration, c.forgetting, c.created_at, ${lastUser} AS last_user_at
         FROM conversations c WHERE c.bot_id = $1 AND c.id > $2 ${only} ORDER BY c.id LIMIT $3`,
        params,
      );
      return rows.map(toCandidate);
    },
    /** When the user of this conversation last wrote (the platforms' 24-hour window). */
    async lastUserAt(conversationId: number): Promise<number | null> {
      const row = await db.get<{ at: number | null }>("SELECT MAX(created_at) AS at FROM messages WHERE conversation_id = $1 AND direction = 'USER'", [conversationId]);
      return row?.at == null ? null : Number(row.at);
    },
    /** The `broadcast` webhook event to deliver next (the latest replaces one not delivered yet). */
    async setNotice(id: string, body: string | null, due: number): Promise<void> {
      await db.run('UPDATE broadcasts SET notice = $2, notice_attempts = 0, notice_due = $3 WHERE id = $1', [id, body, due]);
    },
    async dueNotices(now: number, limit: number): Promise<Array<{ id: string; botId: string; body: string; attempts: number; due: number }>> {
      const rows = await db.all<{ id: string; bot_id: string; notice: string; notice_attempts: number; notice_due: number }>(
        'SELECT id, bot_id, notice, notice_attempts, notice_due FROM broadcasts WHERE notice IS NOT NULL AND notice_due <= $1 ORDER BY notice_due LIMIT $2',
        [now, limit],
      );
      return rows.map((r) => ({ id: r.id, botId: r.bot_id, body: r.notice, attempts: Number(r.notice_attempts), due: Number(r.notice_due) }));
    },
    /** Claims a notice for one attempt (pushes its due time on), so two nodes do not send it at once. */
    async claimNotice(id: string, body: string, due: number, until: number): Promise<boolean> {
      return (await db.run('UPDATE broadcasts SET notice_due = $4, notice_attempts = notice_attempts + 1 WHERE id = $1 AND notice = $2 AND notice_due = $3', [id, body, due, until])) > 0;
    },
    async retryNotice(id: string, body: string, due: number): Promise<void> {
      await db.run('UPDATE broadcasts SET notice_due = $3 WHERE id = $1 AND notice = $2', [id, body, due]);
    },
    async noticeDone(id: string, body: string): Promise<void> {
      await db.run('UPDATE broadcasts SET notice = NULL WHERE id = $1 AND notice = $2', [id, body]);
    },
  };
}
