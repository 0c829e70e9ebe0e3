// api.md "Conventions" against hostile input, on EVERY route the server registers (read from
// /openapi.json, so a new route is covered without editing this file): malformed JSON, bodies of
// the wrong kind, unknown fields (ignored), oversized bodies, garbage tokens. Every answer is JSON with a
// string Code, never a 5xx, echoes X-Request-Id, and no state changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Response } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { accessOf, carriesBody, discoverRoutes, isStrictObject, label, sampleOf, type RouteInfo } from '../support/routes.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

const USER = 'hostile-user';
const UNKNOWN = 'HostileUnknownField';
const MB = 1024 * 1024;
/** Routes that take bot files, whose body limit is 5 MiB instead of 256 KiB. */
const BOT_FILE_ROUTES = ['POST /bots', 'POST /bots/restore', 'PUT /bots/{APIKey}'];
/** Routes that take knowledge documents (10 MiB of text, escaped as JSON): 24 MiB (docs/limits.md). */
const DOCUMENT_ROUTES = ['POST /bots/{APIKey}/knowledge', 'PUT /bots/{APIKey}/knowledge/{SourceId}'];
/** Imports take a multipart upload of up to 10 MiB (importers.md); a JSON body is not one. */
const IMPORT_ROUTES = ['POST /bots/import', 'POST /bots/import/preview'];
/** Routes that must exist (guards against an empty or broken OpenAPI document). */
const KNOWN_ROUTES = ['POST /authorization/integration', 'POST /admin/accounts', 'GET /bots', 'POST /bots', 'PUT /bots/{APIKey}', 'POST /custom/chat', 'GET /custom/config'];

const padded = (bytes: number) => JSON.stringify({ HostilePadding: 'x'.repeat(bytes) });

for (const kind of databaseKinds()) {
  describe(`hostile input on every route (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let routes: RouteInfo[];
    let snapshot: unknown;
    let sequence = 0;

    /** The state a hostile request must not change, read through the API and the store. */
    const readState = async () => {
      const c = server.client;
      const reads = [
        c.get('/bots', { token: tenant.accountToken }),
        c.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken }),
        c.get(`/bots/${tenant.botKey}/versions`, { token: tenant.accountToken }),
        c.get(`/admin/accounts/${tenant.accountId}`, { token: ADMIN_TOKEN }),
        c.get(`/custom/values?userid=${USER}`, { token: tenant.botToken }),
        c.get(`/custom/position?userid=${USER}`, { token: tenant.botToken }),
      ];
      const bodies = [];
      for (const res of await Promise.all(reads)) {
        assert.equal(res.status, 200, res.text);
        bodies.push(res.body);
      }
      const store = server.running.store;
      return { bodies, accounts: await store.accounts.count(), operator: await store.operators.byEmail(tenant.accountId, 'hostile@example.org') };
    };

    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      const started = await server.client.post('/custom/chat', { UserId: USER }, { token: tenant.botToken });
      assert.equal(started.status, 200);
      const listed = await server.client.get('/bots', { token: tenant.accountToken });
      routes = await discoverRoutes(server.client, {
        botKey: tenant.botKey,
        webKey: listed.body.Result[0].WebKey,
        accountId: tenant.accountId,
        userId: USER,
        tokens: { admin: ADMIN_TOKEN, account: tenant.accountToken, bot: tenant.botToken },
      });
      snapshot = await readState();
    });
    after(() => server.close());

    /** Sends a hostile request and checks what every error answer must be. */
    const send = async (route: RouteInfo, options: { token?: string | null; raw?: string; body?: unknown; contentType?: string; authorization?: string }) => {
      const requestId = `hostile-${++sequence}`;
      const headers: Record<string, string> = { 'x-request-id': requestId };
      if (options.authorization) headers.authorization = options.authorization;
      const token = options.token === null ? undefined : (options.token ?? route.token);
      const res = await server.client.call(route.method, route.path, options.body, { token, headers, raw: options.raw, contentType: options.contentType });
      const where = `${label(route)} → ${res.status} ${res.text.slice(0, 200)}`;
      assert.ok(res.status < 500, `never a 5xx: ${where}`);
      assert.equal(res.headers.get('x-request-id'), requestId, `X-Request-Id echoed: ${where}`);
      if (res.status >= 400) {
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `JSON error: ${where}`);
        assert.equal(typeof res.body?.Code, 'string', `a string Code: ${where}`);
        assert.equal(typeof res.body?.Message, 'string', `a string Message: ${where}`);
      }
      return res;
    };
    const expectCode = (res: Response, route: RouteInfo, status: number, code: string, failures: string[]) => {
      if (res.status !== status || res.body?.Code !== code) failures.push(`${label(route)}: expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 160)}`);
    };

    test('the route list comes from /openapi.json and holds the known routes', () => {
      const names = routes.map(label);
      for (const known of KNOWN_ROUTES) assert.ok(names.includes(known), `${known} in ${names.join(', ')}`);
      for (const limited of [...BOT_FILE_ROUTES, ...DOCUMENT_ROUTES, ...IMPORT_ROUTES]) assert.ok(names.includes(limited), limited);
      assert.ok(routes.filter((r) => r.secured).every((r) => typeof r.token === 'string'));
    });

    test('malformed JSON → 400 INVALID_JSON on every route that takes a body', async () => {
      const failures: string[] = [];
      // A platform's webhook is verified (ChannelId, then its secret or signature) before its body is
      // read: an unknown ChannelId is 404 whatever the body (test/e2e/channel-*.test.ts).
      for (const route of routes.filter((r) => carriesBody(r) && accessOf(r) !== 'platform')) {
        for (const raw of ['{"Text": ', '{bad json}', '[1, 2', 'nul']) {
          expectCode(await send(route, { raw }), route, 400, 'INVALID_JSON', failures);
        }
      }
      assert.deepEqual(failures, []);
    });

    test('a JSON array, number, string or null where an object is expected → 400', async () => {
      const failures: string[] = [];
      for (const route of routes.filter((r) => r.body)) {
        // a route whose body is an object schema says INVALID_REQUEST; a bot-file route INVALID_BOT at $
        const code = route.body!.type === 'object' ? 'INVALID_REQUEST' : 'INVALID_BOT';
        for (const raw of ['[]', '[{"Text":"hi"}]', '42', '"a string"', 'true', 'null']) {
          const res = await send(route, { raw });
          expectCode(res, route, 400, code, failures);
          if (code === 'INVALID_BOT' && res.body?.Problems?.[0]?.Path !== '$') failures.push(`${label(route)} ${raw}: problem not at $`);
        }
      }
      assert.deepEqual(failures, []);
    });

    test('an unknown member is ignored, never refused, on every route with a body schema (api.md Conventions)', async () => {
      const failures: string[] = [];
      for (const route of routes.filter((r) => r.body)) {
        if (isStrictObject(route.body)) {
          // A known member no schema accepts ([[1]]) next to the unknown one: the 400 must be about
          // the known member, so the unknown one was dropped rather than refused (and nothing changes).
          const known = Object.keys(route.body!.properties ?? {})[0];
          const res = await send(route, { body: { ...(sampleOf(route.body!) as object), [UNKNOWN]: 1, [known]: [[1]] } });
          expectCode(res, route, 400, 'INVALID_REQUEST', failures);
          if (!String(res.body?.Field).startsWith(`body.${known}`) || String(res.body?.Message).includes(UNKNOWN)) {
            failures.push(`${label(route)}: the answer is not about ${known}: ${res.text}`);
          }
        } else {
          // bot files (and settings, a part of one) are a file format, checked strictly: an unknown
          // property is reported by JSON path
          const body = route.body!.type === 'object' ? { [UNKNOWN]: 1 } : { ...supportBot(), [UNKNOWN]: 1 };
          const res = await send(route, { body });
          expectCode(res, route, 400, 'INVALID_BOT', failures);
          const paths: string[] = (res.body?.Problems ?? []).map((p: any) => p.Path);
          if (!paths.some((p) => p.endsWith(`.${UNKNOWN}`))) failures.push(`${label(route)}: no problem names ${UNKNOWN}: ${res.text}`);
        }
      }
      assert.deepEqual(failures, []);
    });

    test('a body over the limit → 413 PAYLOAD_TOO_LARGE: 1 MB anywhere, 6 MB on the bot file routes, 11 MB on the import routes, 25 MB on the document routes', async () => {
      const failures: string[] = [];
      for (const route of routes.filter(carriesBody)) {
        const botFile = BOT_FILE_ROUTES.includes(label(route));
        const res = await send(route, { raw: padded(MB) });
        if (DOCUMENT_ROUTES.includes(label(route))) {
          // 1 MB is under the document limit: the body is read, and refused as no document
          expectCode(res, route, 400, 'INVALID_REQUEST', failures);
          expectCode(await send(route, { raw: padded(25 * MB) }), route, 413, 'PAYLOAD_TOO_LARGE', failures);
        } else if (IMPORT_ROUTES.includes(label(route))) {
          // 1 MB is under the 10 MiB upload limit: the body is read, and refused as no upload
          expectCode(res, route, 415, 'UNSUPPORTED_MEDIA_TYPE', failures);
          expectCode(await send(route, { raw: padded(11 * MB) }), route, 413, 'PAYLOAD_TOO_LARGE', failures);
        } else if (botFile) {
          // 1 MB is under the 5 MiB bot-file limit: the file is read, and refused as a bot file
          expectCode(res, route, 400, 'INVALID_BOT', failures);
          expectCode(await send(route, { raw: padded(6 * MB) }), route, 413, 'PAYLOAD_TOO_LARGE', failures);
        } else {
          expectCode(res, route, 413, 'PAYLOAD_TOO_LARGE', failures);
        }
      }
      assert.deepEqual(failures, []);
    });

    test('no token → 401 TOKEN_MISSING and garbage tokens → 401 TOKEN_INVALID on every authenticated route', async () => {
      const failures: string[] = [];
      const secured = routes.filter((r) => r.secured);
      assert.ok(secured.length >= 10);
      for (const route of secured) {
        const body = carriesBody(route) && route.body ? {} : undefined;
        expectCode(await send(route, { token: null, body }), route, 401, 'TOKEN_MISSING', failures);
        for (const authorization of ['Bearer garbage', 'Bearer a.b.c', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAA', 'Basic Zm9vOmJhcg==', `${tenant.botToken}`]) {
          expectCode(await send(route, { token: null, authorization, body }), route, 401, 'TOKEN_INVALID', failures);
        }
      }
      assert.deepEqual(failures, []);
    });

    test('open routes need no token', async () => {
      const failures: string[] = [];
      for (const route of routes.filter((r) => !r.secured)) {
        // bodies are malformed so that no handler runs (and no state changes)
        const res = await send(route, { token: null, raw: carriesBody(route) ? '{"open":' : undefined });
        if (res.status === 401 || res.status === 403) failures.push(`${label(route)}: ${res.status}`);
      }
      assert.deepEqual(failures, []);
    });

    test('no hostile request changed any state', async () => {
      assert.deepEqual(await readState(), snapshot);
    });

    test('an unknown route → 404 NOT_FOUND as JSON, with X-Request-Id', async () => {
      for (const [method, path] of [
        ['GET', '/nope'],
        ['POST', '/custom/chat/extra'],
        ['GET', '/bots/x/y/z'],
        ['DELETE', '/admin'],
        ['GET', '/'],
      ]) {
        const res = await server.client.call(method, path, undefined, { token: tenant.accountToken, headers: { 'x-request-id': 'nf-1' } });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.body.Code, 'NOT_FOUND');
        assert.equal(typeof res.body.Message, 'string');
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(res.headers.get('x-request-id'), 'nf-1');
      }
    });

    test('an empty POST body on /custom/chat is a RESET: 200 with the welcome parts', async () => {
      const welcome = ['Welcome to ACME support!', 'What can I do for you?'];
      const empty = await server.client.call('POST', '/custom/chat', undefined, { token: tenant.botToken, raw: '', headers: { 'user-id': 'empty-1' } });
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(
        empty.body.Parts.map((p: any) => p.Text),
        welcome,
      );
      assert.equal(empty.body.UserId, 'empty-1');
      const absent = await server.client.call('POST', '/custom/chat', undefined, { token: tenant.botToken });
      assert.equal(absent.status, 200, absent.text);
      assert.deepEqual(
        absent.body.Parts.map((p: any) => p.Text),
        welcome,
      );
      assert.equal(typeof absent.body.UserId, 'string');
      assert.ok(absent.body.UserId.length > 0, 'a user id is created');
      const blank = await server.client.call('POST', '/custom/chat', undefined, { token: tenant.botToken, raw: '  \n' });
      assert.equal(blank.status, 200, blank.text);
      assert.deepEqual(
        blank.body.Parts.map((p: any) => p.Text),
        welcome,
      );
    });

    test('every response carries an X-Request-Id, generated when not sent', async () => {
      const answers = await Promise.all([
        server.client.get('/health'),
        server.client.get('/health'),
        server.client.get('/bots', { token: tenant.accountToken }),
        server.client.get('/bots'),
        server.client.get('/nope'),
        server.client.get('/metrics'),
        server.client.get('/openapi.json'),
      ]);
      const ids = answers.map((res) => res.headers.get('x-request-id'));
      for (const id of ids) assert.match(id ?? '', /^\S{8,}$/);
      assert.equal(new Set(ids).size, ids.length, 'each request gets its own id');
      const echoed = await server.client.get('/custom/config', { token: tenant.botToken, headers: { 'x-request-id': 'trace-42' } });
      assert.equal(echoed.headers.get('x-request-id'), 'trace-42');
    });
  });
}
