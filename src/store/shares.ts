// Shared conversation links. Whoever holds a link's code opens the conversation, so the code is
// stored only as its SHA-256: a copy of the database opens no link. Records read back carry the
// hash (`codeHash`), never the code.
import type { ShareMode, ShareRecord, StoredShare } from '../conversations/model.js';
import { sha256 } from '../shared/keys.js';
import type { Queryable } from './driver.js';

interface ShareRow {
  code_hash: string;
  conversation_id: number;
  mode: string;
  expires_at: number;
  handed_back: number;
  created_at: number;
}

const toShare = (r: ShareRow): StoredShare => ({
  codeHash: r.code_hash,
  conversationId: Number(r.conversation_id),
  mode: r.mode as ShareMode,
  expiresAt: Number(r.expires_at),
  handedBack: Number(r.handed_back) === 1,
  createdAt: Number(r.created_at),
});

export function shareRepository(db: Queryable) {
  return {
    async insert(s: ShareRecord): Promise<void> {
      await db.run('INSERT INTO shares (code_hash, conversation_id, mode, expires_at, handed_back, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        sha256(s.code),
        s.conversationId,
        s.mode,
        s.expiresAt,
        s.handedBack ? 1 : 0,
        s.createdAt,
      ]);
    },
    async byCode(code: string): Promise<StoredShare | null> {
      const row = await db.get<ShareRow>('SELECT * FROM shares WHERE code_hash = $1', [sha256(code)]);
      return row ? toShare(row) : null;
    },
    async byConversation(conversationId: number): Promise<StoredShare[]> {
      const rows = await db.all<ShareRow>('SELECT * FROM shares WHERE conversation_id = $1 ORDER BY created_at', [conversationId]);
      return rows.map(toShare);
    },
    /** handover with mode=viewshares: takeover-capable links become view-only. */
    async makeViewOnly(conversationId: number): Promise<void> {
      await db.run("UPDATE shares SET mode = 'view' WHERE conversation_id = $1 AND mode <> 'view'", [conversationId]);
    },
    async dropAll(conversationId: number): Promise<void> {
      await db.run('DELETE FROM shares WHERE conversation_id = $1', [conversationId]);
    },
    /** `auto` links that expired and have not yet handed their conversation back to the bot. */
    async expiredAuto(now: number): Promise<StoredShare[]> {
      const rows = await db.all<ShareRow>("SELECT * FROM shares WHERE mode = 'auto' AND handed_back = 0 AND expires_at <= $1", [now]);
      return rows.map(toShare);
    },
    /** Claims the hand-back of one expired link; false when another node already did it. */
    async markHandedBack(codeHash: string): Promise<boolean> {
      return (await db.run('UPDATE shares SET handed_back = 1 WHERE code_hash = $1 AND handed_back = 0', [codeHash])) === 1;
    },
  };
}
