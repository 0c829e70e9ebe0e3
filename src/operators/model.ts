// Operators, their console sessions and shared conversation links: plain records.

export interface OperatorRecord {
  id: string;
  accountId: string;
  email: string;
  name: string;
  passwordHash: string;
  createdAt: number;
}

export interface OperatorSessionRecord {
  tokenHash: string;
  operatorId: string;
  expiresAt: number;
  createdAt: number;
}

export type ShareMode = 'view' | 'takeover' | 'auto';

/** A new link, its code in clear (to build its URL once). */
export interface ShareRecord {
  code: string;
  conversationId: number;
  mode: ShareMode;
  expiresAt: number;
  handedBack: boolean;
  createdAt: number;
}

/** A link as stored. */
export interface StoredShare extends Omit<ShareRecord, 'code'> {
  codeHash: string;
}
