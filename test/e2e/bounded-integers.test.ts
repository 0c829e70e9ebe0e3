// Issue 22 finding 10: a `Version` of 2^31 (or 1e308, 9007199254740993) reached a 32-bit
// PostgreSQL column and answered 500, where SQLite answered 404. Every whole number of a request
// is now bounded by its route's schema: 400 INVALID_REQUEST naming the field, on every database,
// and nothing changes. The OpenAPI document is walked so that a new unbounded integer fails here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { unboundedIntegers } from '../../src/http/bounded-integers.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** As sent on the wire: JSON.stringify would turn 9007199254740993 into ...992. */
const OUT_OF_RANGE = ['2147483648', '1e308', '9007199254740993', '-1', '1.5'];

for (const kind of databaseKinds()) {
  describe(`whole numbers in requests are bounded (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      assert.equal((await server.client.post('/custom/chat', { UserId: 'numbers' }, { token: tenant.botToken })).status, 200);
    });
    after(() => server.close());

    const refused = async (path: string, raw: string, token: string, field: string, headers: Record<string, string> = {}) => {
      const res = await server.client.post(path, undefined, { token, raw, headers });
      assert.deepEqual([res.status, res.body?.Code, res.body?.Field], [400, 'INVALID_REQUEST', field], `${path} ${raw} → ${res.text}`);
    };

    test('Version of rollback and parse, HistoryLimit, an injected TypeDelay: 400 with the field, on every database', async () => {
      const account = tenant.accountToken;
      const bot = tenant.botToken;
      for (const value of OUT_OF_RANGE) {
        await refused(`/bots/${tenant.botKey}/rollback`, `{"Version":${value}}`, account, 'body.Version');
        await refused(`/bots/${tenant.botKey}/nlp/parse`, `{"Text":"hello","Version":${value}}`, account, 'body.Version');
        await refused('/custom/chat', `{"UserId":"numbers","Command":"READY","HistoryLimit":${value}}`, bot, 'body.HistoryLimit');
        await refused('/custom/chat', `{"UserId":"numbers","Parts":[{"Type":0,"Text":"x","TypeDelay":${value}}]}`, bot, 'body.Parts.0.TypeDelay', { direction: 'BOT' });
      }
      const versions = await server.client.get(`/bots/${tenant.botKey}/versions`, { token: account });
      assert.deepEqual(
        versions.body.Result.map((v: { Version: number }) => v.Version),
        [1],
        'no rollback happened',
      );
    });

    test('the largest version a column holds is looked up: 404 VERSION_NOT_FOUND', async () => {
      const rollback = await server.client.post(`/bots/${tenant.botKey}/rollback`, { Version: 2_147_483_647 }, { token: tenant.accountToken });
      assert.deepEqual([rollback.status, rollback.body.Code], [404, 'VERSION_NOT_FOUND'], rollback.text);
      const parse = await server.client.post(`/bots/${tenant.botKey}/nlp/parse`, { Text: 'hello', Version: 2_147_483_647 }, { token: tenant.accountToken });
      assert.deepEqual([parse.status, parse.body.Code], [404, 'VERSION_NOT_FOUND'], parse.text);
    });

    test('ban days of /custom/state (number or text) beyond a hundred years: 400 with Field days, no ban', async () => {
      for (const days of [...OUT_OF_RANGE, '36501', '"99999999999999999999"', '"2147483648"']) {
        await refused('/custom/state', `{"userid":"numbers","state":"ban","days":${days}}`, tenant.botToken, 'days');
      }
      const state = await server.client.get('/custom/state?userid=numbers', { token: tenant.botToken });
      assert.equal(state.body.State, 0, 'not banned');
      const banned = await server.client.post('/custom/state', { userid: 'numbers', state: 'ban', days: 36_500 }, { token: tenant.botToken });
      assert.equal(banned.status, 200, banned.text);
      assert.equal(banned.body.State, 3);
    });

    test('no integer of any route in the OpenAPI document lacks a minimum or a maximum', async () => {
      const document = (await server.client.get('/openapi.json')).body;
      const found: string[] = [];
      let integers = 0;
      for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
        for (const [method, operation] of Object.entries<any>(operations)) {
          const where = `${method.toUpperCase()} ${path}`;
          const schemas: [string, unknown][] = [
            ...(operation.parameters ?? []).map((p: any) => [`${where} ${p.in}.${p.name}`, p.schema] as [string, unknown]),
            ...Object.values<any>(operation.requestBody?.content ?? {}).map((c) => [`${where} body`, c.schema] as [string, unknown]),
          ];
          for (const [at, schema] of schemas) {
            found.push(...unboundedIntegers(schema, at));
            integers += JSON.stringify(schema ?? {}).split('"integer"').length - 1;
          }
        }
      }
      assert.deepEqual(found, []);
      assert.ok(integers >= 5, `the walk met the request integers (${integers})`);
    });
  });
}
