// SQLite: a chat turn's usual writes (Store.saveTurn) with as little written as the turn changed.
// They run in the group's transaction (sqlite-group-commit.ts), so the statements cost no round
// trip; what a turn costs is the pages it dirties, each written in full to the WAL at COMMIT and
// again at the checkpoint. So:
//
// - one UPDATE of the conversation row does the revision check, the history limits and the
//   history size (the transaction path needs a second UPDATE for the size);
// - when the turn left the control columns as they were (almost every turn), that UPDATE does not
//   name them: SQLite rewrites an index whenever the UPDATE names one of its columns, even with an
//   unchanged value, and the control state, forgetting and hand-over indexes sit on pages of their
//   own, a random one per conversation.
//
// The outcome is the same as on PostgreSQL (turn-in-one-statement.ts): 'conflict' and
// 'over-limit' write nothing.
import type { TurnSave, TurnSaveOutcome } from '../conversations/port.js';
import { accountRepository } from './accounts.js';
import type { SqlDriver } from './driver.js';
import { encodeMessages, insertMessageRows } from './message-rows.js';
import { missedTextRepository } from './understanding.js';

const LIMITS = 'message_count + $4 <= $6 AND message_bytes + $5 <= $7';

const LEAN_UPDATE = `UPDATE conversations SET state = $3, revision = revision + 1, updated_at = $8,
    message_count = message_count + $4, message_bytes = message_bytes + $5
  WHERE id = $1 AND revision = $2 AND ${LIMITS}`;

const FULL_UPDATE = `UPDATE conversations SET state = $3, revision = revision + 1, updated_at = $8,
    message_count = message_count + $4, message_bytes = message_bytes + $5,
    control_state = $9, operator = $10, ban_expiration = $11, ban_message = $12, forgetting = $13, channel = $14,
    control_changed_at = $15, handed_over_at = CASE WHEN handed_over_at IS NULL AND $9 IN (1, 2) THEN $8 ELSE handed_over_at END
  WHERE id = $1 AND revision = $2 AND ${LIMITS}`;

export function saveTurnInSqlite(driver: SqlDriver, turn: TurnSave): Promise<TurnSaveOutcome> {
  const c = turn.conversation;
  const { rows, bytes } = encodeMessages(turn.messages);
  const params = [c.id, c.revision, JSON.stringify(c.state), rows.length, bytes, turn.limits.messages, turn.limits.bytes, c.updatedAt];
  return driver.transaction(async (tx): Promise<TurnSaveOutcome> => {
    const changed = turn.controlChanged
      ? await tx.run(FULL_UPDATE, [...params, c.controlState, c.operator, c.banExpiration, c.banMessage, c.forgetting ? 1 : 0, c.channel, c.controlChangedAt])
      : await tx.run(LEAN_UPDATE, params);
    if (changed !== 1) {
      // Nothing was written. The same revision means that only the limits stopped the write.
      const row = await tx.get<{ revision: number }>('SELECT revision FROM conversations WHERE id = $1', [c.id]);
      return row !== undefined && Number(row.revision) === c.revision ? 'over-limit' : 'conflict';
    }
    await insertMessageRows(tx, c.id, rows, c.updatedAt);
    if (turn.usage) await accountRepository(tx).addUsage(turn.usage.accountId, turn.usage.month, turn.usage.add);
    await missedTextRepository(tx).add(c.id, turn.missedTexts, turn.limits.missedTexts);
    return 'saved';
  });
}
