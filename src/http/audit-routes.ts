// What the audit log records for each route that can change something (governance.md "Audit
// log"): one line per route, the action its entries carry, or why it records none. http/audit.ts
// puts each line into its route's config as the route is registered (a route may also declare
// `config.audit` itself); test/e2e/audit-completeness.test.ts fails for any POST, PUT, PATCH or
// DELETE route that has neither, so a new route cannot be forgotten.
//
// Exempt, as the spec says: the conversation turns themselves (/custom/chat, /apihook/*, channel
// webhooks, widget messages, an operator's message, which is a turn too) and their variable writes.
// Also exempt: requests that change nothing though they are POSTs (searches, previews, parsing,
// typing signals, a token exchange that only signs a token).
import type { FastifyRequest } from 'fastify';

export type ExemptReason = 'turn' | 'reads' | 'ephemeral';

export type AuditDeclaration =
  | {
      /** the entry's Action, or how to read it from the request (e.g. the State a POST /custom/state asks for) */
      action: string | ((request: FastifyRequest) => string);
      /** body members whose values are safe to keep in Details (e.g. Role, State, Days) */
      pick?: string[];
      /** keep the body's top-level member names (never values) in Details.Fields: settings changed */
      fields?: boolean;
    }
  /** the console's sign-in form: successful and failed attempts, through AuditLog.signIn */
  | { signIn: 'password' }
  | { exempt: ExemptReason };

const stateOf = (request: FastifyRequest) =>
  `conversation.${String((request.body as { state?: unknown } | undefined)?.state ?? 'state')
    .toLowerCase()
    .slice(0, 20)}`;
const one = '/console/api/conversations/:botId/:userId';
const consoleBot = '/console/api/bots/:botId';

export const AUDITED_ROUTES: Record<string, AuditDeclaration> = {
  // sign-in and credentials
  'POST /console/api/login': { signIn: 'password' },
  'POST /console/api/logout': { action: 'signout' },
  'POST /authorization/integration': { exempt: 'reads' },
  'POST /account/key': { action: 'account.key.rotate' },
  // the server admin
  'POST /admin/accounts': { action: 'account.create', pick: ['Plan'] },
  'PATCH /admin/accounts/:AccountId': { action: 'account.update', fields: true, pick: ['Plan', 'AuditDays'] },
  'POST /admin/accounts/:AccountId/key': { action: 'account.key.rotate' },
  'POST /admin/accounts/:AccountId/operators': { action: 'operator.add', pick: ['Email', 'Role'] },
  'PATCH /admin/accounts/:AccountId/operators/:OperatorId': { action: 'operator.update', fields: true, pick: ['Role'] },
  'DELETE /admin/accounts/:AccountId/operators/:OperatorId': { action: 'operator.remove' },
  // single sign-on's settings (the sign-ins themselves come through AuditLog.signIn: sso-sign-in.ts)
  'PUT /admin/accounts/:AccountId/sso': { action: 'sso.set', fields: true, pick: ['Domains', 'DefaultRole', 'RoleClaim', 'AutoCreate', 'RequireSso'] },
  'DELETE /admin/accounts/:AccountId/sso': { action: 'sso.remove' },
  // bots
  'POST /bots': { action: 'bot.create' },
  'POST /bots/restore': { action: 'bot.restore' },
  'POST /bots/import': { action: 'bot.import', pick: ['Format'] },
  'POST /bots/import/preview': { exempt: 'reads' }, // converts and reports; creates nothing
  'POST /bot/clone': { action: 'bot.clone' },
  'POST /bot/refclone': { action: 'bot.clone' },
  'PUT /bots/:APIKey': { action: 'bot.save' },
  'DELETE /bots/:APIKey': { action: 'bot.delete' },
  'PATCH /bots/:APIKey/settings': { action: 'bot.settings', fields: true },
  'POST /bots/:APIKey/publish': { action: 'bot.publish' },
  'POST /bots/:APIKey/rollback': { action: 'bot.rollback', pick: ['Version'] },
  'POST /bots/:APIKey/secret': { action: 'bot.secret.rotate' },
  'POST /bots/:APIKey/detach': { action: 'bot.detach' },
  'PUT /bots/:APIKey/ai': { action: 'ai.set', fields: true, pick: ['Provider', 'Model'] },
  'DELETE /bots/:APIKey/ai': { action: 'ai.remove' },
  // agents' secrets and MCP servers: names only (the target), never a value, a host list or headers
  'PUT /bots/:APIKey/secrets/:NAME': { action: 'secret.set' },
  'DELETE /bots/:APIKey/secrets/:NAME': { action: 'secret.remove' },
  'PUT /bots/:APIKey/mcp/:Name': { action: 'mcp.set' },
  'DELETE /bots/:APIKey/mcp/:Name': { action: 'mcp.remove' },
  // agents' approvals (agents.md "Tools"): who decided is the entry's actor; never the arguments
  'POST /bots/:APIKey/approvals/:ApprovalId/approve': { action: 'approval.approve' },
  'POST /bots/:APIKey/approvals/:ApprovalId/reject': { action: 'approval.reject' },
  [`POST ${consoleBot}/approvals/:ApprovalId/approve`]: { action: 'approval.approve' },
  [`POST ${consoleBot}/approvals/:ApprovalId/reject`]: { action: 'approval.reject' },
  'PUT /bots/:APIKey/channels/:Channel': { action: 'channel.connect' },
  'DELETE /bots/:APIKey/channels/:Channel': { action: 'channel.disconnect' },
  'POST /bots/:APIKey/deliveries/:DeliveryId/retry': { action: 'delivery.retry' },
  'POST /bots/:APIKey/knowledge': { action: 'knowledge.add' },
  'PUT /bots/:APIKey/knowledge/:SourceId': { action: 'knowledge.update' },
  'DELETE /bots/:APIKey/knowledge/:SourceId': { action: 'knowledge.remove' },
  'POST /bots/:APIKey/knowledge/ask': { exempt: 'reads' },
  'POST /bots/:APIKey/knowledge/search': { exempt: 'reads' },
  'POST /bots/:APIKey/nlp/parse': { exempt: 'reads' },
  'POST /bots/:APIKey/preview/chat': { exempt: 'turn' },
  'POST /bots/:APIKey/broadcasts': { action: 'broadcast.create' },
  'POST /bots/:APIKey/broadcasts/:BroadcastId/cancel': { action: 'broadcast.cancel' },
  'POST /bots/:APIKey/broadcasts/preview': { exempt: 'reads' },
  'GET /bots/:APIKey/conversations/:UserId/export': { action: 'export' },
  // conversations through the integration API
  'POST /custom/chat': { exempt: 'turn' },
  'POST /custom/state': { action: stateOf, pick: ['days', 'mode'] },
  'POST /custom/share': { action: 'conversation.share', pick: ['Mode', 'Hours'] },
  'POST /apihook/chat': { exempt: 'turn' },
  'POST /apihook/status': { exempt: 'turn' },
  'POST /channels/:Channel/:ChannelId': { exempt: 'turn' },
  'POST /channels/:Channel/:ChannelId/:Subpath': { exempt: 'turn' }, // Slack's interactivity (button clicks)
  'POST /web/:key/conversation': { exempt: 'turn' },
  'POST /web/:key/messages': { exempt: 'turn' },
  'POST /web/:key/typing': { exempt: 'ephemeral' },
  'POST /share/:code/api/messages': { exempt: 'turn' },
  // the console
  'PUT /console/api/me/avatar': { action: 'operator.avatar' },
  'POST /console/api/team': { action: 'operator.invite', pick: ['Email', 'Role'] },
  'POST /console/api/team/:operatorId/invite': { action: 'operator.reinvite' },
  'PATCH /console/api/team/:operatorId': { action: 'operator.role', pick: ['Role'] },
  'DELETE /console/api/team/:operatorId': { action: 'operator.remove' },
  'POST /console/api/team/join': { action: 'operator.join' },
  'POST /console/api/teams': { action: 'team.create' },
  'PUT /console/api/teams/:teamId/members': { action: 'team.members' },
  'DELETE /console/api/teams/:teamId': { action: 'team.remove' },
  'POST /console/api/canned': { action: 'canned.create' },
  'PUT /console/api/canned/:cannedId': { action: 'canned.update' },
  'DELETE /console/api/canned/:cannedId': { action: 'canned.remove' },
  [`POST ${one}/takeover`]: { action: 'conversation.takeover' },
  [`POST ${one}/handover`]: { action: 'conversation.handover', pick: ['Mode'] },
  [`POST ${one}/ban`]: { action: 'conversation.ban', pick: ['Days'] },
  [`POST ${one}/unban`]: { action: 'conversation.unban' },
  [`POST ${one}/forget`]: { action: 'conversation.forget' },
  [`POST ${one}/messages`]: { exempt: 'turn' },
  [`POST ${one}/typing`]: { exempt: 'ephemeral' },
  [`POST ${one}/assign`]: { action: 'conversation.assign' },
  [`POST ${one}/unassign`]: { action: 'conversation.unassign' },
  [`POST ${one}/notes`]: { action: 'conversation.note' },
  [`POST ${one}/resolve`]: { action: 'conversation.resolve' },
  [`POST ${one}/reopen`]: { action: 'conversation.reopen' },
  [`POST ${one}/snooze`]: { action: 'conversation.snooze' },
  [`POST ${one}/transfer`]: { action: 'conversation.transfer' },
  [`GET ${one}/export`]: { action: 'export' },
  'POST /console/api/bots': { action: 'bot.create' },
  'POST /console/api/bots/import': { action: 'bot.import', pick: ['Format'] },
  'POST /console/api/bots/import/preview': { exempt: 'reads' }, // converts and reports; creates nothing
  [`PATCH ${consoleBot}`]: { action: 'bot.settings', fields: true },
  [`DELETE ${consoleBot}`]: { action: 'bot.delete' },
  [`POST ${consoleBot}/duplicate`]: { action: 'bot.duplicate' },
  [`PUT ${consoleBot}/draft`]: { action: 'bot.draft.save' },
  [`POST ${consoleBot}/publish`]: { action: 'bot.publish' },
  [`POST ${consoleBot}/rollback`]: { action: 'bot.rollback', pick: ['Version'] },
  [`POST ${consoleBot}/preview/chat`]: { exempt: 'turn' },
  [`PUT ${consoleBot}/channels/:Channel`]: { action: 'channel.connect' },
  [`DELETE ${consoleBot}/channels/:Channel`]: { action: 'channel.disconnect' },
  [`POST ${consoleBot}/broadcasts`]: { action: 'broadcast.create' },
  [`POST ${consoleBot}/broadcasts/:BroadcastId/cancel`]: { action: 'broadcast.cancel' },
  [`POST ${consoleBot}/broadcasts/preview`]: { exempt: 'reads' },
  [`POST ${consoleBot}/knowledge`]: { action: 'knowledge.add' },
  [`PUT ${consoleBot}/knowledge/:SourceId`]: { action: 'knowledge.update' },
  [`DELETE ${consoleBot}/knowledge/:SourceId`]: { action: 'knowledge.remove' },
  [`POST ${consoleBot}/knowledge/ask`]: { exempt: 'reads' },
  [`POST ${consoleBot}/knowledge/search`]: { exempt: 'reads' },
};
