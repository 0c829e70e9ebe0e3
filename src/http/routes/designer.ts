// The designer's API (docs/designer.md): a bot's draft, versions, diff, publish, rollback and the
// preview chat, each reachable two ways with one handler:
// - /bots/{APIKey}/...           an account token (the integration API);
// - /console/api/bots/{botId}/... a signed-in operator whose role opens `design` (designer or
//   admin), with the console's session cookie; built from operatorSignIn's options, whose
//   ambientCredential mark puts them behind the cross-site guard (edge.ts) and whose area is the
//   role check's. The cookie is scoped to /console, hence the twin.
// The console's draft is kept even with problems (docs/designer.md "Saving"); the API's PUT
// /bots/{APIKey} refuses them. The work is done by bots/service.ts and designer/preview.ts.
import { Type, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord, Publisher } from '../../bots/model.js';
import { AppError, type ErrorCode } from '../../shared/errors.js';
import { authed, BOT_FILE_BODY_LIMIT, type App } from '../app.js';
import { VersionNumber } from '../bounded-integers.js';
import type { Services } from '../services.js';
import { BotDiff, BotFile, DraftProblemList, EditedBot, SavedDraft, Versions } from '../bot-schemas.js';
import { PreviewChatReply } from '../wire-schemas.js';
import { AnyBotFile, edited, parseIfMatch, TRAINING_ERRORS } from './bots.js';
import { consoleTwinSchema, operatorSignIn } from './console-session.js';
import { CHAT_ANSWERS, ChatBody, chatInputOf } from './custom.js';

// Path and query strings are not coerced (server.ts), so a version there is digits, read by hand:
// at most 9 of them, below INT32_MAX, so the 32-bit column always holds what is looked up.
const VersionText = Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'A published version number' });
// Required, but checked by the handler after the bot's owner is: another account's token learns nothing.
const DiffQuery = Type.Object(
  {
    from: Type.Optional(VersionText),
    to: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,8}|draft)$', description: 'A published version number, or draft' })),
  },
  { additionalProperties: false },
);
const RollbackBody = Type.Object({ Version: VersionNumber() }, { additionalProperties: false });
const EDIT_ERRORS = ['BOT_NOT_FOUND', 'INVALID_BOT', 'VERSION_MISMATCH', 'BEHAVIOUR_LINKED', 'LIMIT_EXCEEDED', 'BOT_FILE_BUSY'] as const;

/** Who is asking, and who a publish they make is recorded as. */
interface Caller {
  bot: BotRecord;
  by: Publisher;
}

interface DesignerRoute {
  method: HTTPMethods;
  /** after the bot's part of the path: '' or '/versions/:Version' */
  path: string;
  summary: string;
  /** only on the console twin: the account-token route exists already (routes/bots.ts) */
  consoleOnly?: boolean;
  params?: Record<string, TSchema>;
  querystring?: TSchema;
  body?: TSchema | object;
  botFile?: boolean;
  response: Record<number, TSchema>;
  errors: readonly ErrorCode[];
  handle: (caller: Caller, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

const paramsOf = (request: FastifyRequest) => request.params as Record<string, string>;

function designerRoutesOf(s: Services): DesignerRoute[] {
  return [
    {
      method: 'GET',
      path: '/draft',
      consoleOnly: true,
      summary: 'The draft as a bot file, with its version (also as ETag)',
      response: { 200: BotFile },
      errors: ['BOT_NOT_FOUND'],
      handle: async ({ bot }, _request, reply) => {
        reply.header('ETag', `"${bot.version}"`);
        return s.bots.draftFile(bot);
      },
    },
    {
      // Apart from the file, so that a client that saves back what it read never sends them as part of it.
      method: 'GET',
      path: '/draft/problems',
      consoleOnly: true,
      summary: "The draft's problems ([] when it has none) and its version",
      response: { 200: DraftProblemList },
      errors: ['BOT_NOT_FOUND'],
      handle: async ({ bot }) => ({ Version: bot.version, Problems: (await s.bots.draftWithProblems(bot)).problems }),
    },
    {
      // Unlike PUT /bots/{APIKey}, a draft with problems is kept (and they are listed): the designer can always save.
      method: 'PUT',
      path: '/draft',
      consoleOnly: true,
      summary: 'Replace the draft (If-Match: the version it was read at); kept even with problems, which are listed',
      body: AnyBotFile,
      botFile: true,
      response: { 200: SavedDraft },
      errors: EDIT_ERRORS,
      handle: async ({ bot }, request) => {
        const saved = await s.bots.replaceDraft(bot, request.body, request.headers['content-type'], parseIfMatch(request.headers['if-match']), true);
        return { APIKey: saved.apiKey, Version: saved.version, Problems: saved.problems ?? [] };
      },
    },
    {
      method: 'POST',
      path: '/publish',
      consoleOnly: true,
      summary: 'Publish the draft (recorded as published by the operator)',
      response: { 200: EditedBot },
      errors: [...EDIT_ERRORS, ...TRAINING_ERRORS],
      handle: async ({ bot, by }) => edited(await s.bots.publish(bot, by)),
    },
    {
      method: 'GET',
      path: '/versions',
      consoleOnly: true,
      summary: 'Published versions, newest first, with who published them',
      response: { 200: Versions },
      errors: ['BOT_NOT_FOUND'],
      handle: async ({ bot }) => ({ Result: await s.bots.versions(bot) }),
    },
    {
      method: 'POST',
      path: '/rollback',
      consoleOnly: true,
      summary: 'Publish an earlier version again',
      body: RollbackBody,
      response: { 200: EditedBot },
      errors: [...EDIT_ERRORS, 'VERSION_NOT_FOUND', ...TRAINING_ERRORS],
      handle: async ({ bot, by }, request) => edited(await s.bots.rollback(bot, (request.body as { Version: number }).Version, by)),
    },
    {
      method: 'GET',
      path: '/versions/:Version',
      summary: "A published version's bot file",
      params: { Version: VersionText },
      response: { 200: BotFile },
      errors: ['BOT_NOT_FOUND', 'VERSION_NOT_FOUND'],
      handle: async ({ bot }, request) => s.bots.versionFile(bot, Number(paramsOf(request).Version)),
    },
    {
      method: 'GET',
      path: '/diff',
      summary: 'What changed from one version to another or to the draft (docs/designer.md "Diff")',
      querystring: DiffQuery,
      response: { 200: BotDiff },
      errors: ['BOT_NOT_FOUND', 'VERSION_NOT_FOUND'],
      handle: async ({ bot }, request) => {
        const { from, to } = request.query as { from?: string; to?: string };
        if (from === undefined) throw new AppError('INVALID_REQUEST', 'from is required.', { Field: 'querystring.from' });
        if (to === undefined) throw new AppError('INVALID_REQUEST', 'to is required.', { Field: 'querystring.to' });
        return s.bots.diff(bot, Number(from), to === 'draft' ? 'draft' : Number(to));
      },
    },
    {
      method: 'POST',
      path: '/preview/chat',
      summary: 'POST /custom/chat on the draft, in a preview conversation (docs/designer.md "Preview")',
      body: ChatBody,
      response: { 200: PreviewChatReply },
      errors: [...CHAT_ANSWERS.errors, 'BOT_NOT_FOUND', 'INVALID_BOT', ...TRAINING_ERRORS],
      handle: async ({ bot }, request) => s.preview.say(bot, chatInputOf(request.body as Parameters<typeof chatInputOf>[0], request.headers)),
    },
  ];
}

export function designerRoutes(app: App, s: Services): void {
  const account = authed('account');
  const signedIn = operatorSignIn(app, s, 'design');
  const accountOf = (request: FastifyRequest) => (request.principal as { account: AccountRecord }).account;

  for (const route of designerRoutesOf(s)) {
    const schema = {
      summary: route.summary,
      ...(route.querystring ? { querystring: route.querystring } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: route.response,
    };
    const bodyLimit = route.botFile ? { bodyLimit: BOT_FILE_BODY_LIMIT } : {};
    if (!route.consoleOnly) {
      app.route({
        method: route.method,
        url: `/bots/:APIKey${route.path}`,
        ...account,
        ...bodyLimit,
        schema: { ...schema, tags: ['bots'], security: [{ bearer: [] }], params: Type.Object({ APIKey: Type.String({ maxLength: 64 }), ...route.params }), errors: route.errors },
        handler: async (request, reply) => {
          const bot = await s.bots.owned(accountOf(request), paramsOf(request).APIKey);
          return route.handle({ bot, by: { kind: 'account' } }, request, reply);
        },
      });
    }
    app.route({
      method: route.method,
      url: `/console/api/bots/:botId${route.path}`,
      ...signedIn,
      ...bodyLimit,
      schema: { ...schema, ...consoleTwinSchema('designer (console session)', route.method as string, route.errors, route.params) },
      handler: async (request, reply) => {
        const { operator } = request.operatorContext!;
        // A bot of another account answers as a missing one.
        const bot = await s.consoleBots.open(request.operatorContext!, paramsOf(request).botId);
        return route.handle({ bot, by: { kind: 'operator', operatorId: operator.id, email: operator.email, name: operator.name } }, request, reply);
      },
    });
  }
}
