// Health, metrics, the JSON Schemas of bot files and test files, and the OpenAPI document (api.md section 15).
import fs from 'node:fs';
import { TEST_FILE_SCHEMA } from '../../bot-testing/schema.js';
import { AppError } from '../../shared/errors.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { BotFile } from '../bot-schemas.js';
import { Health, textResponse } from '../wire-schemas.js';

export function operabilityRoutes(app: App, s: Services): void {
  app.get('/health', { schema: { tags: ['operability'], summary: 'Readiness: 200 when the database answers', response: { 200: Health }, errors: ['UNAVAILABLE'] } }, async () => {
    try {
      await s.ping();
    } catch {
      throw new AppError('UNAVAILABLE');
    }
    return { Status: 'ok' as const };
  });
  app.get(
    '/metrics',
    { schema: { tags: ['operability'], summary: 'Prometheus metrics', response: { 200: textResponse('text/plain', 'Prometheus text exposition format') } } },
    async (_request, reply) => {
      reply.type(s.metrics.contentType);
      return s.metrics.text();
    },
  );
  app.get(
    '/schema/bot.json',
    { schema: { tags: ['bots'], summary: 'JSON Schema of bot files', response: { 200: { ...BotFile, description: 'A JSON Schema (draft 2020-12)' } } } },
    async (_request, reply) => {
      reply.type('application/schema+json');
      return s.botSchema;
    },
  );
  // testing.md: editors complete and check conversation test files with it (`$schema` or yaml-language-server).
  app.get(
    '/schema/bot-test.json',
    { schema: { tags: ['bots'], summary: 'JSON Schema of conversation test files (colloquy test, docs/testing.md)', response: { 200: { ...BotFile, description: 'A JSON Schema (draft 2020-12)' } } } },
    async (_request, reply) => {
      reply.type('application/schema+json');
      return TEST_FILE_SCHEMA;
    },
  );
  const avatar = fs.readFileSync(new URL('../../../assets/avatar.svg', import.meta.url));
  app.get('/avatar.svg', { schema: { hide: true } }, async (_request, reply) => reply.type('image/svg+xml').send(avatar));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
