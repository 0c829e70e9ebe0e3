// The audit log's reader (governance.md "Audit log"): GET /account/audit and /account/audit.csv
// with an account token, and the same for the console's admins (/console/api/audit, the Audit page
// at /console/audit). What is recorded is http/audit.ts's; this file only reads.
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import { auditCsv, AUDIT_CSV_MAX } from '../../audit/csv.js';
import type { StoredAuditEntry } from '../../audit/model.js';
import { auditQueryOf, type AuditQueryText } from '../../audit/query.js';
import { auditBundle } from '../../audit/page-bundle.js';
import { authed, type App } from '../app.js';
import { CsvResponse, sendCsv } from '../csv-reply.js';
import type { Services } from '../services.js';
import { bundledPageRoutes } from './bundled-page.js';
import { operatorSignIn, SESSION_ERRORS } from './console-session.js';

const AuditQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, included' })),
    to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time, excluded' })),
    actor: Type.Optional(Type.String({ maxLength: 254, description: 'exactly this Actor' })),
    action: Type.Optional(Type.String({ maxLength: 64, description: 'exactly this Action' })),
    limit: Type.Optional(Type.String({ maxLength: 12, description: '1 to 500, default 100' })),
    cursor: Type.Optional(Type.String({ maxLength: 20, description: 'the Next of the page before' })),
  },
  { additionalProperties: false },
);
const Value = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null(), Type.Array(Type.String())]);
const Entry = Type.Object({
  At: Type.String(),
  Actor: Type.String(),
  ActorKind: Type.Union([Type.Literal('operator'), Type.Literal('account-token'), Type.Literal('bot-token'), Type.Literal('admin'), Type.Literal('system')]),
  Action: Type.String(),
  Target: Type.String(),
  Ip: Type.String(),
  Details: Type.Record(Type.String(), Value),
});
const AuditPage = Type.Object({ Result: Type.Array(Entry), Next: Type.Union([Type.String(), Type.Null()], { description: 'the cursor of the next page; null on the last' }) });

export function auditRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['audit log'], security: [{ bearer: [] }] } };
  const accountOf = (principal: unknown) => (principal as { account: AccountRecord }).account.id;
  const view = (e: StoredAuditEntry) => ({ At: s.clock.iso(e.at), Actor: e.actor, ActorKind: e.actorKind, Action: e.action, Target: e.target, Ip: e.ip, Details: e.details });
  const page = async (accountId: string, q: AuditQueryText) => {
    const { entries, next } = await s.audit.page(auditQueryOf(accountId, q));
    return { Result: entries.map(view), Next: next === null ? null : String(next) };
  };
  const csv = (accountId: string, q: AuditQueryText, reply: FastifyReply) => {
    const { limit: _limit, before: _before, ...query } = auditQueryOf(accountId, q);
    return sendCsv(reply, `audit-${s.clock.date()}`, auditCsv(s.audit.all(query, AUDIT_CSV_MAX), s.clock.iso));
  };

  app.get(
    '/account/audit',
    { ...account, schema: { ...account.schema, summary: 'Who changed what and when, newest first (filters and a cursor)', querystring: AuditQuery, response: { 200: AuditPage } } },
    async (request) => page(accountOf(request.principal), request.query),
  );
  app.get(
    '/account/audit.csv',
    { ...account, schema: { ...account.schema, summary: 'The audit log as CSV, newest first, the same filters (at most 100,000 rows)', querystring: AuditQuery, response: CsvResponse } },
    async (request, reply) => csv(accountOf(request.principal), request.query, reply),
  );

  // The console's admins: the same reader, and the Audit page.
  const admin = operatorSignIn(app, s, 'account');
  const hidden = { hide: true, tags: ['operator console'], querystring: AuditQuery, errors: [...SESSION_ERRORS] };
  bundledPageRoutes(app, { url: '/console/audit', folder: 'audit', title: 'Audit log', css: 'audit.css', bundle: auditBundle });
  app.get('/console/api/audit', { ...admin, schema: { ...hidden, summary: "The account's audit log (admins)", response: { 200: AuditPage } } }, async (request) =>
    page(request.operatorContext!.account.id, request.query),
  );
  app.get('/console/api/audit.csv', { ...admin, schema: { ...hidden, summary: "The account's audit log as CSV (admins)" } }, async (request, reply) =>
    csv(request.operatorContext!.account.id, request.query, reply),
  );
}
