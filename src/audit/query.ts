// GET /account/audit's filters, read from the query string's texts (governance.md "Audit log"):
// from and to as ISO 8601 dates or date-times (to excluded), an exact actor and action, a page
// size of 1 to 500 (100 by default), and the cursor, the `Next` of the page before.
import { AppError } from '../shared/errors.js';
import type { AuditQuery } from './model.js';
import { AUDIT_PAGE_MAX } from './service.js';

export interface AuditQueryText {
  from?: string;
  to?: string;
  actor?: string;
  action?: string;
  limit?: string;
  cursor?: string;
}

export const AUDIT_PAGE_DEFAULT = 100;
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function instant(text: string | undefined, field: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  const ms = DATE.test(text) ? Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) : NaN;
  if (Number.isNaN(ms)) throw new AppError('INVALID_REQUEST', `${field} must be an ISO 8601 date or date-time.`, { Field: field });
  return ms;
}

function whole(text: string | undefined, field: string, min: number, max: number): number | undefined {
  if (text === undefined || text === '') return undefined;
  const n = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw new AppError('INVALID_REQUEST', `${field} must be a whole number from ${min} to ${max}.`, { Field: field });
  return n;
}

export function auditQueryOf(accountId: string, q: AuditQueryText): AuditQuery {
  return {
    accountId,
    from: instant(q.from, 'from'),
    to: instant(q.to, 'to'),
    actor: q.actor || undefined,
    action: q.action || undefined,
    before: whole(q.cursor, 'cursor', 1, Number.MAX_SAFE_INTEGER),
    limit: whole(q.limit, 'limit', 1, AUDIT_PAGE_MAX) ?? AUDIT_PAGE_DEFAULT,
  };
}
