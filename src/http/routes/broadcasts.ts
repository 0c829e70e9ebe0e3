// broadcasts.md "API": a bot's broadcasts (account token).
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import type { CreateBody } from '../../broadcasts/service.js';
import { authed, type App } from '../app.js';
import { BroadcastIdParams, BroadcastList, BroadcastParams, BroadcastView, CreateBroadcastBody, PreviewAnswer, PreviewBody } from '../broadcast-schemas.js';
import type { Services } from '../services.js';

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

export function broadcastRoutes(app: App, s: Services): void {
  const account = { ...authed('account'), schema: { tags: ['broadcasts'], security: [{ bearer: [] }] } };
  const owned = (request: FastifyRequest) => s.bots.owned(accountOf(request), (request.params as { APIKey: string }).APIKey);

  app.post(
    '/bots/:APIKey/broadcasts',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'Create a broadcast: now, at a time, or repeating',
        params: BroadcastParams,
        body: CreateBroadcastBody,
        response: { 201: BroadcastView },
        errors: ['BOT_NOT_FOUND', 'BEHAVIOUR_NOT_FOUND', 'LIMIT_EXCEEDED'],
      },
    },
    async (request, reply) => reply.status(201).send(await s.broadcasts.create(await owned(request), request.body as CreateBody)),
  );
  app.get(
    '/bots/:APIKey/broadcasts',
    {
      ...account,
      schema: { ...account.schema, summary: "The bot's broadcasts with their counts, newest first", params: BroadcastParams, response: { 200: BroadcastList }, errors: ['BOT_NOT_FOUND'] },
    },
    async (request) => s.broadcasts.list(await owned(request)),
  );
  app.post(
    '/bots/:APIKey/broadcasts/preview',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'How many conversations an audience holds now, and some of them',
        params: BroadcastParams,
        body: PreviewBody,
        response: { 200: PreviewAnswer },
        errors: ['BOT_NOT_FOUND'],
      },
    },
    async (request) => s.broadcasts.preview(await owned(request), request.body.Audience),
  );
  app.get(
    '/bots/:APIKey/broadcasts/:BroadcastId',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'A broadcast and the counts of its latest run',
        params: BroadcastIdParams,
        response: { 200: BroadcastView },
        errors: ['BOT_NOT_FOUND', 'BROADCAST_NOT_FOUND'],
      },
    },
    async (request) => s.broadcasts.get(await owned(request), request.params.BroadcastId),
  );
  app.post(
    '/bots/:APIKey/broadcasts/:BroadcastId/cancel',
    {
      ...account,
      schema: {
        ...account.schema,
        summary: 'Stop it on every node; recipients not reached yet are skipped',
        params: BroadcastIdParams,
        response: { 200: BroadcastView },
        errors: ['BOT_NOT_FOUND', 'BROADCAST_NOT_FOUND', 'BROADCAST_ENDED'],
      },
    },
    async (request) => s.broadcasts.cancel(await owned(request), request.params.BroadcastId),
  );
}
