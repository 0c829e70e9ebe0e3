// Health, metrics, the bot-file JSON Schema and the OpenAPI document (api.md section 15).
import fs from 'node:fs';
import { AppError } from '../../shared/errors.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';

export function operabilityRoutes(app: App, s: Services): void {
  app.get('/health', { schema: { tags: ['operability'], summary: 'Readiness: 200 when the database answers' } }, async () => {
    try {
      await s.ping();
    } catch {
      throw new AppError('UNAVAILABLE');
    }
    return { Status: 'ok' };
  });
  app.get('/metrics', { schema: { tags: ['operability'], summary: 'Prometheus metrics' } }, async (_request, reply) => {
    reply.type(s.metrics.contentType);
    return s.metrics.text();
  });
  app.get('/schema/bot.json', { schema: { tags: ['bots'], summary: 'JSON Schema of bot files' } }, async (_request, reply) => {
    reply.type('application/schema+json');
    return s.botSchema;
  });
  const avatar = fs.readFileSync(new URL('../../../assets/avatar.svg', import.meta.url));
  app.get('/avatar.svg', { schema: { hide: true } }, async (_request, reply) => reply.type('image/svg+xml').send(avatar));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
