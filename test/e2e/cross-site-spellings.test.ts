// Issue 22 finding 4: the cross-site guard of the console and share links matched the URL as sent
// against `^/(console/api|share)/`, while the router decodes `/console/%61pi/...` to the console
// route: a forged forget from another origin went through. The guard now keys on the route's own
// mark, so every spelling the router routes is guarded and every other spelling is a 404.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { addOperator, botIdOf, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { consoleApiRoutes, label } from '../support/routes.js';

/** A request with the path exactly as given (fetch would normalise `..`, `./` and more). */
function rawRequest(base: string, method: string, path: string, headers: Record<string, string>, body = '{}') {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const url = new URL(base);
    const request = http.request({ host: url.hostname, port: url.port, method, path, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const FOREIGN: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'http://127.0.0.1:1' }, { origin: 'http://evil.example', 'sec-fetch-site': 'same-site' }];
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Spellings of one path that the router decodes to the same route. */
const encodings = (path: string) => [
  path,
  path.replace('/api/', '/%61pi/'),
  path.replace('/api/', '/%61%70%69/'),
  path.replace(/^\/console\//, '/%63onsole/').replace(/^\/share\//, '/%73hare/'),
  path.replace(/\/(\w)(\w*)$/, (_m, first: string, rest: string) => `/%${first.charCodeAt(0).toString(16)}${rest}`),
];

for (const kind of databaseKinds()) {
  describe(`the cross-site guard keys on the route, not on the URL as sent (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let cookie: string;
    let botId: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      await addOperator(server.client, tenant.accountId, 'ann@example.org');
      cookie = await signIn(server.client, 'ann@example.org');
      botId = await botIdOf(server, tenant.botKey);
    });
    after(() => server.close());

    const stillThere = async (user: string) => {
      const state = await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken });
      assert.equal(state.status, 200, `the conversation still exists: ${state.text}`);
      assert.equal(state.body.State, 0);
    };

    test('a forged forget under every spelling is refused (403 ORIGIN_FORBIDDEN or 404); the conversation stays', async () => {
      const user = 'spelled-victim';
      assert.equal((await server.client.post('/custom/chat', { UserId: user }, { token: tenant.botToken })).status, 200);
      const path = `/console/api/conversations/${botId}/${user}/forget`;
      for (const spelling of [...encodings(path), `${path}?then=1`]) {
        for (const headers of FOREIGN) {
          const res = await rawRequest(server.url, 'POST', spelling, { cookie, ...headers });
          assert.deepEqual([res.status, res.body?.Code], [403, 'ORIGIN_FORBIDDEN'], `${spelling} ${JSON.stringify(headers)}`);
        }
      }
      // spellings the router does not route are not found, whoever sends them
      const tail = `conversations/${botId}/${user}/forget`;
      const unrouted = [
        `/console//api/${tail}`,
        `/Console/api/${tail}`,
        `/console/API/${tail}`,
        `${path}/`,
        `${path};x`,
        `/console/x/../api/${tail}`,
        `/console/api/./${tail}`,
        `/console/api%2F${tail}`,
      ];
      for (const spelling of unrouted) {
        const res = await rawRequest(server.url, 'POST', spelling, { cookie, 'sec-fetch-site': 'cross-site' });
        assert.deepEqual([res.status, res.body?.Code], [404, 'NOT_FOUND'], spelling);
      }
      await stillThere(user);
      // the encoded spelling does reach the forget route: from the console's own origin it forgets
      const own = await rawRequest(server.url, 'POST', path.replace('/api/', '/%61pi/'), { cookie, 'sec-fetch-site': 'same-origin', origin: server.url });
      assert.ok(own.status === 200 || own.status === 202, JSON.stringify(own));
      assert.equal(own.body.UserId, user);
    });

    test('every state-changing route under /console/api/ and /share/ refuses a cross-site request, however spelled', async () => {
      const user = 'every-route';
      assert.equal((await server.client.post('/custom/chat', { UserId: user }, { token: tenant.botToken })).status, 200);
      const share = await server.client.post('/custom/share', { UserId: user, Mode: 'takeover', Hours: 1 }, { token: tenant.botToken });
      assert.equal(share.status, 200, share.text);
      const context = {
        botKey: tenant.botKey,
        webKey: 'unused',
        accountId: tenant.accountId,
        userId: user,
        tokens: { admin: ADMIN_TOKEN, account: tenant.accountToken, bot: tenant.botToken },
        shareCode: new URL(share.body.Url).pathname.split('/').pop()!,
        botId,
        cannedId: '1',
      };
      const routes = consoleApiRoutes(server.running.app, context, ['/console/api/', '/share/']).filter((route) => !SAFE.has(route.method));
      const found = routes.map(label);
      for (const known of [
        'POST /console/api/login',
        'POST /console/api/logout',
        'POST /console/api/conversations/{botId}/{userId}/forget',
        'POST /console/api/conversations/{botId}/{userId}/notes',
        'PUT /console/api/canned/{cannedId}',
        'DELETE /console/api/canned/{cannedId}',
        'POST /share/{code}/api/messages',
        // the designer's cookie twins of the bot routes (routes/designer.ts)
        'PUT /console/api/bots/{botId}/draft',
        'POST /console/api/bots/{botId}/publish',
        'POST /console/api/bots/{botId}/rollback',
        'POST /console/api/bots/{botId}/preview/chat',
      ]) {
        assert.ok(found.includes(known), `${known} in ${found.join(', ')}`);
      }
      for (const route of routes) {
        for (const spelling of encodings(route.path)) {
          for (const headers of FOREIGN) {
            const res = await rawRequest(server.url, route.method, spelling, { cookie, ...headers }, route.method === 'DELETE' ? '' : '{}');
            assert.deepEqual([res.status, res.body?.Code], [403, 'ORIGIN_FORBIDDEN'], `${label(route)} as ${spelling} ${JSON.stringify(headers)}`);
          }
        }
      }
      await stillThere(user);
    });
  });
}
