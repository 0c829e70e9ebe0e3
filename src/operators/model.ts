// Operators and their console sessions: plain records.

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

