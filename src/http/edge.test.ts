// The cross-site guard keys on a route's mark (config.ambientCredential), and the mark cannot be
// forgotten: an unmarked route under /console/api/ or /share/ stops the server from starting, and
// a route that reads an ambient credential without the mark fails instead of answering.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify, { type FastifyRequest } from 'fastify';
import { assertGuarded, installCrossSiteGuard } from './edge.js';

function guardedApp() {
  const app = Fastify();
  installCrossSiteGuard(app, () => 'http://colloquy.example');
  app.setErrorHandler((error: Error & { status?: number; code?: string }, _request, reply) => reply.status(error.status ?? 500).send({ Code: error.code ?? 'INTERNAL', Message: error.message }));
  return app;
}

describe('the cross-site guard', () => {
  test('a route under /console/api/ or /share/ without config.ambientCredential is refused at registration', () => {
    for (const url of ['/console/api/new-thing', '/share/:code/api/new-thing']) {
      const app = guardedApp();
      assert.throws(() => app.post(url, async () => ({})), /must set config\.ambientCredential/, url);
    }
  });

  test('a marked route is guarded wherever it lives; an unmarked one elsewhere is not', async () => {
    const app = guardedApp();
    app.post('/elsewhere/:id', { config: { ambientCredential: 'session' } }, async () => ({ Done: true }));
    app.post('/open', async () => ({ Done: true }));
    await app.ready();
    const crossSite = { 'sec-fetch-site': 'cross-site' };
    const guarded = await app.inject({ method: 'POST', url: '/%65lsewhere/1', headers: crossSite });
    assert.deepEqual([guarded.statusCode, guarded.json().Code], [403, 'ORIGIN_FORBIDDEN']);
    assert.equal((await app.inject({ method: 'POST', url: '/open', headers: crossSite })).statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/elsewhere/1', headers: { 'sec-fetch-site': 'same-origin' } })).statusCode, 200);
  });

  test('reading an ambient credential on a route without the matching mark fails', async () => {
    const app = guardedApp();
    const reads = (request: FastifyRequest) => {
      assertGuarded(request, 'session');
      return { Read: true };
    };
    app.post('/unmarked', async (request) => reads(request));
    app.post('/link', { config: { ambientCredential: 'share-link' } }, async (request) => reads(request));
    app.post('/session', { config: { ambientCredential: 'session' } }, async (request) => reads(request));
    await app.ready();
    assert.equal((await app.inject({ method: 'POST', url: '/unmarked' })).statusCode, 500);
    assert.equal((await app.inject({ method: 'POST', url: '/link' })).statusCode, 500);
    assert.equal((await app.inject({ method: 'POST', url: '/session' })).statusCode, 200);
  });
});
