// api.md section 10: reference clones, full clones with tagged text, detaching a clone's behaviour.
// Every field is optional in the schemas so that an absent one is 400 MISSING_FIELD naming it (the
// spec's code), while unknown fields and wrong types stay 400 INVALID_REQUEST.
import { Type } from 'typebox';
import { authed, type App } from '../app.js';
import { TRAINING_ERRORS } from './bots.js';
import type { Services } from '../services.js';
import { Credentials, DetachedBehaviour } from '../bot-schemas.js';
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';

const Source = Type.Object({ BotAPIKey: Type.Optional(Type.String({ maxLength: 256 })), BotSecret: Type.Optional(Type.String({ maxLength: 256 })) }, { additionalProperties: false });
const RefCloneBody = Type.Object({ Source: Type.Optional(Source) }, { additionalProperties: false });
const TagValue = Type.Object(
  {
    Name: Type.Optional(Type.String({ maxLength: 200 })),
    // Numbers are taken as their text: integrators often send ids and prices as numbers.
    Value: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Number(), Type.Null()])),
  },
  { additionalProperties: false },
);
const CloneBody = Type.Object(
  {
    Source: Type.Optional(Source),
    Destination: Type.Optional(
      Type.Object({ BotName: Type.Optional(Type.String({ maxLength: 200 })), Variables: Type.Optional(Type.Array(TagValue, { maxItems: 1000 })) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
const DetachBody = Type.Object({ Behaviour: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false });
const CLONE_ANSWERS = { response: { 200: Credentials }, errors: ['MISSING_FIELD', 'BOT_NOT_FOUND', 'PACKAGE_REQUIRED', 'STATE_CONFLICT', 'INVALID_BOT', ...TRAINING_ERRORS] } as const;
const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;
const credentials = (bot: BotRecord) => ({ APIKey: bot.apiKey, APISecret: bot.apiSecret });

export function cloneRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['bots'], security: [{ bearer: [] }] } };

  app.post('/bot/refclone', { ...account, schema: { ...account.schema, summary: 'A referenced clone of a bot, which becomes its master', body: RefCloneBody, ...CLONE_ANSWERS } }, async (request) =>
    credentials(await s.clones.refClone(accountOf(request), request.body.Source)),
  );

  app.post('/bot/clone', { ...account, schema: { ...account.schema, summary: 'A full, detached copy with [[tags]] filled in', body: CloneBody, ...CLONE_ANSWERS } }, async (request) =>
    credentials(await s.clones.fullClone(accountOf(request), request.body.Source, request.body.Destination)),
  );

  app.post(
    '/bots/:APIKey/detach',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: "Make one of a clone's linked behaviours its own",
        params: KeyParams,
        body: DetachBody,
        response: { 200: DetachedBehaviour },
        errors: ['MISSING_FIELD', 'BOT_NOT_FOUND', 'BEHAVIOUR_NOT_FOUND', 'STATE_CONFLICT', 'VERSION_MISMATCH'],
      },
    },
    async (request) => {
      const bot = await s.bots.owned(accountOf(request), request.params.APIKey);
      const result = await s.clones.detach(bot, request.body.Behaviour);
      return { APIKey: result.bot.apiKey, Version: result.bot.version, Detached: result.detached };
    },
  );
}
