// A bot's life in the console (issue 37 "New bot"), for designers and admins signed in with the
// console's cookie: new (empty or from a template), duplicate, rename, delete. The integration
// API has the same powers with an account token (routes/bots.ts); these take a name, not a file.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { BotRecord } from '../../bots/model.js';
import { channelLinks } from '../../channels/messaging/links.js';
import { TEMPLATE_IDS, templateFile, templateList, type TemplateId } from '../../bots/templates.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { operatorSignIn } from './console-session.js';
import { TRAINING_ERRORS } from './bots.js';
import { withoutTrailingSlashes } from '../../shared/trailing-slashes.js';

// A name a person reads in a list: something visible, at most 100 characters.
const BotName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: "The bot's name" });
const BotParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 64 }) });
const NewBotBody = Type.Object(
  {
    Name: BotName,
    TemplateId: Type.Optional(
      Type.Union(
        TEMPLATE_IDS.map((id) => Type.Literal(id)),
        { description: 'default empty' },
      ),
    ),
  },
  { additionalProperties: false },
);
const NameBody = Type.Object({ Name: BotName }, { additionalProperties: false });
const Template = Type.Object({ TemplateId: Type.String(), Name: Type.String(), Description: Type.String() });
const BotChoice = Type.Object({ BotId: Type.String(), Name: Type.String(), Published: Type.Boolean() });

const ChannelLinkReply = Type.Object({ Channel: Type.String(), Connected: Type.Boolean(), Link: Type.Union([Type.String(), Type.Null()]), Account: Type.Union([Type.String(), Type.Null()]) });

const choice = (bot: BotRecord) => ({ BotId: bot.id, Name: bot.name, Published: bot.liveVersionId !== null });

export function consoleBotRoutes(app: App, s: Services): void {
  const design = operatorSignIn(app, s, 'design');
  const tags = ['operator console'];
  const ctxOf = (request: FastifyRequest) => request.operatorContext!;
  const botOf = (request: FastifyRequest) => s.consoleBots.open(ctxOf(request), (request.params as { botId: string }).botId);

  app.get(
    '/console/api/bot-templates',
    { ...design, schema: { hide: true, tags, summary: 'What a new bot may start from', response: { 200: Type.Object({ Result: Type.Array(Template) }) } } },
    async () => ({
      Result: templateList(),
    }),
  );

  app.get(
    '/console/api/bots/:botId/install',
    {
      ...design,
      schema: {
        hide: true,
        tags,
        summary: 'How to put the bot on a website: its web key, the embed line and a test page',
        params: BotParams,
        response: { 200: Type.Object({ WebKey: Type.String(), Snippet: Type.String(), TestPage: Type.String(), Channels: Type.Array(ChannelLinkReply) }) },
        errors: ['BOT_NOT_FOUND'],
      },
    },
    async (request) => {
      const bot = await botOf(request);
      const base = withoutTrailingSlashes(s.config.publicUrl);
      const Channels = channelLinks(await s.channels.connections.list(bot));
      return { WebKey: bot.webKey, Snippet: `<script src="${base}/widget.js" data-bot="${bot.webKey}"></script>`, TestPage: `${base}/demo?bot=${encodeURIComponent(bot.webKey)}`, Channels };
    },
  );

  app.post(
    '/console/api/bots',
    {
      ...design,
      schema: { hide: true, tags, summary: 'A new bot, empty or from a template, published at once', body: NewBotBody, response: { 201: BotChoice }, errors: ['LIMIT_EXCEEDED', ...TRAINING_ERRORS] },
    },
    async (request, reply) => {
      const { Name, TemplateId = 'empty' } = request.body;
      const bot = await s.bots.create(ctxOf(request).account, templateFile(TemplateId as TemplateId, Name.trim()));
      return reply.status(201).send(choice(bot));
    },
  );

  app.post(
    '/console/api/bots/:botId/duplicate',
    {
      ...design,
      schema: {
        hide: true,
        tags,
        summary: "A new bot from this one's draft",
        params: BotParams,
        body: NameBody,
        response: { 201: BotChoice },
        errors: ['BOT_NOT_FOUND', 'LIMIT_EXCEEDED', ...TRAINING_ERRORS],
      },
    },
    async (request, reply) => {
      const bot = await s.bots.duplicate(ctxOf(request).account, await botOf(request), request.body.Name.trim());
      return reply.status(201).send(choice(bot));
    },
  );

  app.patch(
    '/console/api/bots/:botId',
    { ...design, schema: { hide: true, tags, summary: 'Rename the bot', params: BotParams, body: NameBody, response: { 200: BotChoice }, errors: ['BOT_NOT_FOUND', 'VERSION_MISMATCH'] } },
    async (request) => choice(await s.bots.rename(await botOf(request), request.body.Name.trim())),
  );

  app.delete(
    '/console/api/bots/:botId',
    {
      ...design,
      schema: {
        hide: true,
        tags,
        summary: 'Delete the bot, its conversations and its knowledge',
        params: BotParams,
        response: { 200: Type.Object({ BotId: Type.String(), Deleted: Type.Literal(true) }) },
        errors: ['BOT_NOT_FOUND'],
      },
    },
    async (request) => {
      const bot = await botOf(request);
      await s.bots.remove(bot);
      return { BotId: bot.id, Deleted: true as const };
    },
  );
}
