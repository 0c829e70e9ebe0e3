// The audit log as CSV (/account/audit.csv): the same filters as the JSON, newest first, by the
// one CSV rule (analytics/csv.ts csvCell: every text quoted, formula-looking text defused), read
// page by page and written as it comes, at most AUDIT_CSV_MAX rows.
import { csvRow } from '../analytics/csv.js';
import type { AuditQuery, StoredAuditEntry } from './model.js';

export const AUDIT_CSV_MAX = 100_000;

export async function* auditCsv(entries: AsyncGenerator<StoredAuditEntry>, iso: (ms: number) => string): AsyncGenerator<string> {
  yield csvRow(['At', 'Actor', 'ActorKind', 'Action', 'Target', 'Ip', 'Details']);
  let chunk = '';
  for await (const e of entries) {
    chunk += csvRow([iso(e.at), e.actor, e.actorKind, e.action, e.target, e.ip, JSON.stringify(e.details)]);
    if (chunk.length > 64_000) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

export type AuditCsvQuery = Omit<AuditQuery, 'limit' | 'before'>;
