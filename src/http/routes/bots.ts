// api.md section 11: bot management (platform API, account token), plus backup and restore.
import { Type } from 'typebox';
import { usageView } from '../../accounts/service.js';
import { AppError } from '../../shared/errors.js';
import { authed, BOT_FILE_BODY_LIMIT, type App } from '../app.js';
import { VersionNumber } from '../bounded-integers.js';
import type { Services } from '../services.js';
import { BotFile, BotList, CreatedBot, Credentials, DeletedBot, EditedBot, Versions } from '../bot-schemas.js';
import { AccountKey, Usage } from '../wire-schemas.js';
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';
import type { Published } from '../../bots/service.js';

/** What publish and rollback record as who published, when an account token did. */
const BY_ACCOUNT_TOKEN = { kind: 'account' } as const;

/** What a request that trains an intent model can also meet (understanding/trainer.ts). */
export const TRAINING_ERRORS = ['TRAINING_LIMIT', 'TRAINING_BUSY'] as const;

const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });
export const AnyBotFile = { description: 'A bot file (bot-format.md), JSON or YAML; validated against /schema/bot.json' };

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

function channelsOf(bot: BotRecord): string[] {
  const channels = ['custom'];
  if (bot.settings.channels?.web?.enabled) channels.push('web');
  return channels;
}

export function parseIfMatch(header: string | string[] | undefined): number | null {
  if (header === undefined) return null;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(String(header));
  if (!match) throw new AppError('INVALID_REQUEST', 'If-Match must be a bot version number.', { Field: 'If-Match' });
  return Number(match[1]);
}

/** What an edit answers; a master's publish and rollback also list what became of each clone (`Clones`). */
export const edited = (bot: Published) => ({ APIKey: bot.apiKey, Version: bot.version, ...(bot.clones ? { Clones: bot.clones } : {}) });

export function botRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['bots'], security: [{ bearer: [] }] } };
  const botFileRoute = { ...account, bodyLimit: BOT_FILE_BODY_LIMIT };
  // What every edit of a bot answers, and the errors an edit can meet.
  const edits = { response: { 200: EditedBot }, errors: ['BOT_NOT_FOUND', 'INVALID_BOT', 'VERSION_MISMATCH', 'BEHAVIOUR_LINKED', 'LIMIT_EXCEEDED', 'BOT_FILE_BUSY'] as const };
  const owned = (request: FastifyRequest) => s.bots.owned(accountOf(request), (request.params as { APIKey: string }).APIKey);

  app.get('/bots', { ...account, schema: { ...account.schema, summary: "The account's bots", response: { 200: BotList } } }, async (request) => {
    const bots = await s.bots.list(accountOf(request));
    const keyOf = new Map(bots.map((b) => [b.id, b.apiKey]));
    return {
      Result: bots.map((b) => ({
        Name: b.name,
        Description: b.description,
        APIKey: b.apiKey,
        APISecret: b.apiSecret,
        WebKey: b.webKey,
        Avatar: b.avatar,
        Channels: channelsOf(b),
        Version: b.version,
        Role: b.role,
        MasterAPIKey: b.masterBotId ? (keyOf.get(b.masterBotId) ?? null) : null,
      })),
    };
  });

  const createSchema = { ...account.schema, body: AnyBotFile, response: { 201: CreatedBot }, errors: ['INVALID_BOT', 'LIMIT_EXCEEDED', 'BOT_FILE_BUSY', ...TRAINING_ERRORS] as const };
  const create = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const file = await s.bots.readFile(request.body, request.headers['content-type']);
    const bot = await s.bots.create(accountOf(request), file);
    return reply.status(201).send({ APIKey: bot.apiKey, APISecret: bot.apiSecret, Version: bot.version });
  };
  app.post('/bots', { ...botFileRoute, schema: { ...createSchema, summary: 'Create a bot from a bot file' } }, create);
  app.post('/bots/restore', { ...botFileRoute, schema: { ...createSchema, summary: 'Restore a backup as a new bot' } }, create);

  app.get(
    '/bots/backup',
    { ...authed('bot'), schema: { tags: ['bots'], security: [{ bearer: [] }], summary: "The bot token's bot as a bot file (its draft)", response: { 200: BotFile } } },
    // the last draft without problems: a backup is restored with POST /bots/restore, which takes valid files only
    async (request) => s.bots.checkedDraftFile((request.principal as { bot: BotRecord }).bot),
  );

  app.get('/account/usage', { ...account, schema: { ...account.schema, summary: "This month's message accounting", response: { 200: Usage } } }, async (request) =>
    usageView(await s.accounts.usage(accountOf(request).id)),
  );

  // Not in api.md: see docs/decisions.md "Credentials and tokens".
  app.post('/account/key', { ...account, schema: { ...account.schema, summary: 'Rotate the account API key (old key and its tokens stop working)', response: { 200: AccountKey } } }, async (request) =>
    s.accounts.rotateKey(accountOf(request).id),
  );

  app.get(
    '/bots/:APIKey',
    { ...account, schema: { ...account.schema, summary: 'The draft as a bot file', params: KeyParams, response: { 200: BotFile }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => s.bots.draftFile(await owned(request)),
  );

  app.put('/bots/:APIKey', { ...botFileRoute, schema: { ...account.schema, summary: 'Replace the draft (If-Match: version)', params: KeyParams, body: AnyBotFile, ...edits } }, async (request) => {
    const ifMatch = parseIfMatch(request.headers['if-match']);
    const bot = await owned(request);
    return edited(await s.bots.replaceDraft(bot, request.body, request.headers['content-type'], ifMatch));
  });

  app.patch(
    '/bots/:APIKey/settings',
    { ...account, schema: { ...account.schema, summary: 'Merge into the settings; effective at once', params: KeyParams, body: Type.Object({}, { additionalProperties: true }), ...edits } },
    async (request) => edited(await s.bots.patchSettings(await owned(request), request.body)),
  );

  const trains = { ...edits, errors: [...edits.errors, ...TRAINING_ERRORS] };
  app.post('/bots/:APIKey/publish', { ...account, schema: { ...account.schema, summary: 'Publish the draft', params: KeyParams, ...trains } }, async (request) =>
    edited(await s.bots.publish(await owned(request), BY_ACCOUNT_TOKEN)),
  );

  app.get(
    '/bots/:APIKey/versions',
    { ...account, schema: { ...account.schema, summary: 'Published versions', params: KeyParams, response: { 200: Versions }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => ({
      Result: await s.bots.versions(await owned(request)),
    }),
  );

  app.post(
    '/bots/:APIKey/rollback',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'Publish an earlier version again',
        params: KeyParams,
        body: Type.Object({ Version: VersionNumber() }, { additionalProperties: false }),
        ...edits,
        errors: [...edits.errors, 'VERSION_NOT_FOUND', ...TRAINING_ERRORS],
      },
    },
    async (request) => edited(await s.bots.rollback(await owned(request), request.body.Version, BY_ACCOUNT_TOKEN)),
  );

  app.post(
    '/bots/:APIKey/secret',
    { ...account, schema: { ...account.schema, summary: 'Rotate the API secret', params: KeyParams, response: { 200: Credentials }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => {
      const bot = await s.bots.rotateSecret(await owned(request));
      return { APIKey: bot.apiKey, APISecret: bot.apiSecret };
    },
  );

  app.delete(
    '/bots/:APIKey',
    { ...account, schema: { ...account.schema, summary: 'Delete the bot and its conversations', params: KeyParams, response: { 200: DeletedBot }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => {
      const bot = await owned(request);
      await s.bots.remove(bot);
      return { APIKey: bot.apiKey, Deleted: true as const };
    },
  );
}
