// Accounts as the rest of the server sees them: plain records, no SQL shapes.

export type Plan = 'free' | 'standard';

export interface AccountRecord {
  id: string;
  name: string;
  plan: Plan;
  packages: string[];
  /** moves on with every key rotation; tokens issued at an older version no longer work */
  keyVersion: number;
  createdAt: number;
}

export interface UsageRecord {
  month: string;
  messages: number;
  replies: number;
  notifications: number;
  apiCalls: number;
  /** tokens reported by AI providers (understanding.md) */
  aiTokens: number;
}

/** What a turn adds to the month's counters; AI tokens only where AI calls ran. */
export type UsageAdded = Omit<UsageRecord, 'month' | 'aiTokens'> & { aiTokens?: number };
