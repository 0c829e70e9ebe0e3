// The one recording point of the audit log (governance.md "Audit log"): every route's config
// carries its audit declaration (http/audit-routes.ts, or the route's own `config.audit`), and two
// hooks here record what a successful request changed: who (the bearer's principal or the
// console's operator), what (the declared action), on what (the path's bot, user, operator…), from
// where, with Details that never hold a value the declaration did not pick (audit/details.ts). The
// entry is written before the answer goes out, so a client that got its answer finds the entry.
// Every registered route is listed in `app.auditedRoutes` for the completeness test.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userRef } from '../audit/details.js';
import type { AuditRecord } from '../audit/service.js';
import { AUDITED_ROUTES, type AuditDeclaration } from './audit-routes.js';
import type { Services } from './services.js';

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Path parameters that name the target (APIKey is a credential: the bot's id is written instead). */
const TARGET_PARAMS: Record<string, string> = {
  AccountId: 'account',
  OperatorId: 'operator',
  operatorId: 'operator',
  teamId: 'team',
  cannedId: 'canned',
  SourceId: 'source',
  BroadcastId: 'broadcast',
  Channel: 'channel',
  DeliveryId: 'delivery',
  // a secret's and an MCP server's names, never their values or headers (governance.md)
  NAME: 'secret',
  Name: 'mcp',
};

export interface RouteAudit {
  method: string;
  url: string;
  audit: AuditDeclaration | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** what the audit log records for this route (http/audit-routes.ts) */
    audit?: AuditDeclaration;
  }
  interface FastifyInstance {
    /** every route registered, with its audit declaration (test/e2e/audit-completeness.test.ts) */
    auditedRoutes: RouteAudit[];
  }
  interface FastifyRequest {
    auditDraft: Omit<AuditRecord, 'details'> | null;
  }
}

export const isStateChanging = (method: string) => CHANGING.has(method);

export function installAuditLog(app: FastifyInstance, s: Services): void {
  app.decorate('auditedRoutes', [] as RouteAudit[]);
  app.decorateRequest('auditDraft', null);
  const { draft, record } = auditHooks(s);
  app.addHook('onRoute', (route) => {
    let records = false;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const audit = route.config?.audit ?? AUDITED_ROUTES[`${method} ${route.url}`];
      if (audit) route.config = { ...route.config, audit };
      app.auditedRoutes.push({ method, url: route.url, audit });
      if (audit ? !('exempt' in audit) : isStateChanging(method)) records = true;
    }
    // Only a route with something to record runs the hooks: a chat turn (exempt) pays nothing.
    if (records) {
      route.preHandler = [...[route.preHandler ?? []].flat(), draft];
      route.onSend = [...[route.onSend ?? []].flat(), record];
    }
  });
}

function auditHooks(s: Services) {
  // Who and on what, read before the handler runs: a deleted bot is still found.
  const draft = async (request: FastifyRequest) => {
    const declared = request.routeOptions.config?.audit;
    if (declared ? 'exempt' in declared || 'signIn' in declared : !isStateChanging(request.method)) return;
    request.auditDraft = { ...actorOf(request), action: '', target: await targetOf(request, s), ip: request.ip };
  };
  const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const declared = request.routeOptions.config?.audit;
    if (declared && 'signIn' in declared) {
      await recordSignIn(request, reply.statusCode, s);
      return payload;
    }
    const draft = request.auditDraft;
    if (!draft || reply.statusCode >= 400) return payload;
    const action = !declared || !('action' in declared) ? `${request.method} ${request.routeOptions.url}` : typeof declared.action === 'string' ? declared.action : declared.action(request);
    // nobody signed in (an invited teammate joining): the answer says who it was
    const joined = draft.actor === 'anonymous' ? memberOf(payload, 'Email') : '';
    if (joined) {
      await s.audit.recordByEmail(joined, { action, target: `operator:${joined.toLowerCase()}`, ip: draft.ip, details: detailsOf(request, reply.statusCode, declared) });
      return payload;
    }
    const created = draft.accountId ? '' : memberOf(payload, 'AccountId');
    const target = created ? `account:${created}` : draft.target;
    await s.audit.record({ ...draft, accountId: draft.accountId || created, target, action, details: detailsOf(request, reply.statusCode, declared) });
    return payload;
  };
  return { draft, record };
}

function actorOf(request: FastifyRequest): Pick<AuditRecord, 'accountId' | 'actor' | 'actorKind'> {
  const operator = request.operatorContext;
  if (operator) return { accountId: operator.account.id, actor: operator.operator.email, actorKind: 'operator' };
  const p = request.principal;
  if (p?.kind === 'account') return { accountId: p.account.id, actor: `account:${p.account.id}`, actorKind: 'account-token' };
  if (p?.kind === 'bot') return { accountId: p.account.id, actor: `bot:${p.bot.id}`, actorKind: 'bot-token' };
  const params = request.params as Record<string, string> | undefined;
  if (p?.kind === 'admin') return { accountId: params?.AccountId ?? '', actor: 'admin', actorKind: 'admin' };
  return { accountId: '', actor: 'anonymous', actorKind: 'operator' };
}

async function targetOf(request: FastifyRequest, s: Services): Promise<string> {
  const params = (request.params ?? {}) as Record<string, string>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  const botId = params.botId ?? (params.APIKey ? await s.audit.botIdOfKey(params.APIKey) : request.principal?.kind === 'bot' ? request.principal.bot.id : undefined);
  if (botId) parts.push(`bot:${botId}`);
  const userId = params.userId ?? params.UserId ?? (typeof body.userid === 'string' ? body.userid : typeof body.UserId === 'string' ? body.UserId : undefined);
  if (userId) parts.push(`user:${userRef(botId ?? '', userId)}`);
  for (const [name, kind] of Object.entries(TARGET_PARAMS)) if (params[name]) parts.push(`${kind}:${params[name]}`);
  return parts.join('/');
}

function detailsOf(request: FastifyRequest, status: number, declared: AuditDeclaration | undefined): Record<string, unknown> {
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
  const details: Record<string, unknown> = { Method: request.method, Route: request.routeOptions.url, Status: status };
  if (declared && 'action' in declared) {
    for (const name of declared.pick ?? []) if (body[name] !== undefined) details[name] = body[name];
    if (declared.fields) details.Fields = Object.keys(body).slice(0, 50);
  }
  return details;
}

/** A text member of a JSON answer: the account an admin just created, the e-mail of who joined. */
function memberOf(payload: unknown, name: string): string {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return '';
  try {
    const value = (JSON.parse(payload) as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

async function recordSignIn(request: FastifyRequest, status: number, s: Services): Promise<void> {
  const email = String((request.body as { Email?: unknown } | undefined)?.Email ?? '');
  const signedIn = request.operatorContext;
  // a refused request (throttled, malformed) that named no e-mail is no sign-in attempt
  if (!email && !signedIn) return;
  const ok = status < 400 && signedIn !== null;
  await s.audit.signIn({
    method: 'password',
    email: signedIn?.operator.email ?? email,
    ok,
    ip: request.ip,
    ...(ok ? { accountId: signedIn.account.id } : {}),
    ...(ok ? {} : { reason: `HTTP ${status}` }),
  });
}
