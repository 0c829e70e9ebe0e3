// agents.md "Tools": the approvals of agents' tool calls, for the account (token: decided by
// "api") and for operators in the console (session; conversation data: roles agent and admin,
// decided by the operator's e-mail).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import { DEFAULT_APPROVAL_LIMIT, MAX_APPROVAL_LIMIT, type DecisionInput } from '../../conversations/approvals.js';
import type { BotRecord } from '../../bots/model.js';
import { AppError } from '../../shared/errors.js';
import { authed, type App } from '../app.js';
import { ApprovalList, ApprovalQuery, ApprovalView, ApproveBody, RejectBody } from '../approval-schemas.js';
import type { Services } from '../services.js';
import { consoleTwinSchema, operatorSignIn } from './console-session.js';

const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });
const OneParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }), ApprovalId: Type.String({ minLength: 1, maxLength: 20 }) });
const ConsoleOne = { ApprovalId: Type.String({ minLength: 1, maxLength: 20 }) };
const DECIDE_ERRORS = ['APPROVAL_NOT_FOUND', 'APPROVAL_DECIDED', 'APPROVAL_ARGUMENTS_INVALID'] as const;

type Decide = Pick<DecisionInput, 'approve' | 'arguments' | 'reason'>;
const approveOf = (body: unknown): Decide => ({ approve: true, arguments: (body as { Arguments?: Record<string, unknown> } | undefined)?.Arguments });
const rejectOf = (body: unknown): Decide => ({ approve: false, reason: (body as { Reason?: string } | undefined)?.Reason });

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_APPROVAL_LIMIT;
  const limit = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(limit >= 1 && limit <= MAX_APPROVAL_LIMIT)) throw new AppError('INVALID_REQUEST', `limit must be a whole number from 1 to ${MAX_APPROVAL_LIMIT}.`, { Field: 'limit' });
  return limit;
}

export function agentApprovalRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['agents'], security: [{ bearer: [] }] } };
  const listSummary = "The bot's approvals of agents' tool calls, pending first";
  const summaries = { approve: 'Approve a call: it is made (with the edited Arguments, if given) and the agent goes on', reject: 'Reject a call: the model reads the refusal and the agent goes on' };
  app.get(
    '/bots/:APIKey/approvals',
    { ...account, schema: { ...account.schema, summary: listSummary, params: KeyParams, querystring: ApprovalQuery, response: { 200: ApprovalList }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => s.agentApprovals.list(await s.bots.owned(accountOf(request), request.params.APIKey), limitOf(request.query.limit), request.query.userid),
  );
  for (const [verb, body, decision] of [
    ['approve', ApproveBody, approveOf],
    ['reject', RejectBody, rejectOf],
  ] as const) {
    app.post(
      `/bots/:APIKey/approvals/:ApprovalId/${verb}`,
      { ...account, schema: { ...account.schema, summary: summaries[verb], params: OneParams, body, response: { 200: ApprovalView }, errors: ['BOT_NOT_FOUND', ...DECIDE_ERRORS] } },
      async (request) => {
        const { APIKey, ApprovalId } = request.params as { APIKey: string; ApprovalId: string };
        const bot = await s.bots.owned(accountOf(request), APIKey);
        return s.agentApprovals.decide(bot, ApprovalId, { ...decision(request.body), by: 'api' });
      },
    );
  }

  const signedIn = operatorSignIn(app, s, 'conversations');
  // another account's bot answers as a missing one, as on every console route
  const consoleBot = (request: FastifyRequest, botId: string): Promise<BotRecord> => s.consoleBots.open(request.operatorContext!, botId);
  app.get(
    '/console/api/bots/:botId/approvals',
    { ...signedIn, schema: { summary: listSummary, querystring: ApprovalQuery, response: { 200: ApprovalList }, ...consoleTwinSchema('agents (console session)', 'GET', ['BOT_NOT_FOUND']) } },
    async (request) => s.agentApprovals.list(await consoleBot(request, (request.params as { botId: string }).botId), limitOf(request.query.limit), request.query.userid),
  );
  for (const [verb, body, decision] of [
    ['approve', ApproveBody, approveOf],
    ['reject', RejectBody, rejectOf],
  ] as const) {
    app.post(
      `/console/api/bots/:botId/approvals/:ApprovalId/${verb}`,
      {
        ...signedIn,
        schema: { summary: summaries[verb], body, response: { 200: ApprovalView }, ...consoleTwinSchema('agents (console session)', 'POST', ['BOT_NOT_FOUND', ...DECIDE_ERRORS], ConsoleOne) },
      },
      async (request) => {
        const { botId, ApprovalId } = request.params as { botId: string; ApprovalId: string };
        const bot = await consoleBot(request, botId);
        return s.agentApprovals.decide(bot, ApprovalId, { ...decision(request.body), by: request.operatorContext!.operator.email });
      },
    );
  }
}
