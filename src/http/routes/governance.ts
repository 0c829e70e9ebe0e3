// Governance routes of a bot (governance.md): the personal-data export, one conversation as one
// JSON document, for an account token and for the console's admins ("Export this contact's
// data"), and the retention policy's state (GET /bots/{APIKey}/retention).
// The document is written as it is read (conversations/personal-data.ts); the audit entry is
// http/audit.ts's, declared in audit-routes.ts.
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';
import { AppError } from '../../shared/errors.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { operatorSignIn, SESSION_ERRORS } from './console-session.js';

const UserId = Type.String({ minLength: 1, maxLength: 256 });
const Document = {
  200: {
    description:
      'One JSON document: Bot, UserId, Channel, Control, Variables, Tags, Assignment, Inbox, WebVisitor, ChannelContact, History, Notes, Activity, AnalyticsEvents, MissedTexts, Deliveries, Broadcasts, Shares, AgentTraces (docs/governance.md)',
    content: { 'application/json': { schema: Type.Object({}, { additionalProperties: true }) } },
  },
};

const Retention = Type.Object({
  InactiveDays: Type.Number({ description: 'settings.retention.inactiveDays; 0: off' }),
  KeepDays: Type.Number({ description: 'settings.retention.keepDays; 0: off' }),
  Due: Type.Integer({ minimum: 0, description: 'conversations the next run would forget' }),
  LastRun: Type.Union([Type.String(), Type.Null()], { description: 'when maintenance last applied the policy to this bot' }),
});

export function governanceRoutes(app: App, s: Services): void {
  const send = async (bot: BotRecord, userId: string, reply: FastifyReply) => {
    const conversation = await s.personalData.open(bot.id, userId);
    const name = `conversation-${s.clock.date()}`;
    reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', `attachment; filename="${name}.json"`).header('cache-control', 'no-store');
    return reply.send(Readable.from(s.personalData.document(conversation, bot.name)));
  };
  const account = { ...authed('account'), schema: { tags: ['conversation control'], security: [{ bearer: [] }] } };
  app.get(
    '/bots/:APIKey/conversations/:UserId/export',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'Everything held about one conversation, as one JSON document (personal-data export)',
        params: Type.Object({ APIKey: Type.String({ maxLength: 64 }), UserId }),
        response: Document,
        errors: ['BOT_NOT_FOUND', 'CONVERSATION_NOT_FOUND'],
      },
    },
    async (request, reply) => {
      const bot = await s.bots.owned((request.principal as { account: AccountRecord }).account, request.params.APIKey);
      return send(bot, request.params.UserId, reply);
    },
  );
  app.get(
    '/bots/:APIKey/retention',
    {
      ...account,
      schema: {
        ...account.schema,
        tags: ['bots'],
        summary: "The bot's retention policy, how many conversations are due and the last run",
        params: Type.Object({ APIKey: Type.String({ maxLength: 64 }) }),
        response: { 200: Retention },
        errors: ['BOT_NOT_FOUND'],
      },
    },
    async (request) => s.retention.view(await s.bots.owned((request.principal as { account: AccountRecord }).account, request.params.APIKey)),
  );
  const admin = operatorSignIn(app, s, 'account');
  app.get(
    '/console/api/conversations/:botId/:userId/export',
    {
      ...admin,
      schema: {
        hide: true,
        tags: ['operator console'],
        summary: "Export this contact's data (admins)",
        params: Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }), userId: UserId }),
        errors: [...SESSION_ERRORS, 'CONVERSATION_NOT_FOUND'],
      },
    },
    async (request, reply) => {
      // a bot the operator may not open answers as a missing conversation, as the console's other conversation routes do
      const bot = await s.consoleBots.open(request.operatorContext!, request.params.botId).catch((error) => {
        throw error instanceof AppError && error.code === 'BOT_NOT_FOUND' ? new AppError('CONVERSATION_NOT_FOUND') : error;
      });
      return send(bot, request.params.userId, reply);
    },
  );
}
