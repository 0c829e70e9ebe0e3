// A documented answer goes out exactly as the route made it (members the schema does not name,
// values of other types); with checkResponses an answer that breaks its schema is a failure.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { installResponses } from './responses.js';

async function appWith(checkResponses: boolean, answer: unknown) {
  const app = Fastify();
  installResponses(app, { checkResponses });
  app.setErrorHandler((error: Error & { code?: string }, _request, reply) => reply.status(500).type('text/plain').send(`${error.message}`));
  app.get('/thing', { schema: { response: { 200: Type.Object({ Count: Type.Integer() }) } } }, async () => answer);
  await app.ready();
  return app;
}

describe('response schemas', () => {
  test('never drop or change a member: unknown members and other types go out as they are', async () => {
    const app = await appWith(false, { Count: '7', Extra: { Deep: [1, null] } });
    const res = await app.inject('/thing');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{"Count":"7","Extra":{"Deep":[1,null]}}');
  });

  test('checked: an answer that matches its schema passes, members beyond it included', async () => {
    const app = await appWith(true, { Count: 7, Extra: 'kept' });
    const res = await app.inject('/thing');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{"Count":7,"Extra":"kept"}');
  });

  test('checked: an answer that breaks its schema fails, naming the route and the member', async () => {
    const app = await appWith(true, { Count: 'seven' });
    const res = await app.inject('/thing');
    assert.equal(res.statusCode, 500);
    assert.match(res.body, /200 answer of GET \/thing breaks its documented schema: \/Count must be integer/);
  });

  test('routes with a schema get the error answers of their kind, grouped by status', async () => {
    const app = Fastify();
    installResponses(app, { checkResponses: false });
    let seen: Record<string, { description?: string }> = {};
    app.addHook('onRoute', (route) => {
      seen = route.schema?.response as typeof seen;
    });
    app.post('/x', { config: { access: 'account', limit: 'principal' }, schema: { errors: ['BOT_NOT_FOUND', 'CONVERSATION_NOT_FOUND'] } }, async () => ({}));
    await app.ready();
    assert.deepEqual(Object.keys(seen), ['400', '401', '403', '404', '413', '415', '429']);
    assert.equal(seen['404'].description, 'BOT_NOT_FOUND, CONVERSATION_NOT_FOUND (docs/errors.md)');
    assert.equal(seen['400'].description, 'INVALID_REQUEST, INVALID_JSON (docs/errors.md)');
  });
});
