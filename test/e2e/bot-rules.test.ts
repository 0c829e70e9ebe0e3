// bot-format.md "Rules checked on save", over HTTP: every invalid bot of the shared fixture table is
// refused by POST /bots with 400 INVALID_BOT naming the exact path; nothing is created.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { invalidBot, invalidBots, supportBot } from '../fixtures/invalid-bots.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`bot file rules over HTTP (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let botCount: number;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      botCount = (await server.client.get('/bots', { token: tenant.accountToken })).body.Result.length;
    });
    after(() => server.close());

    test('the fixture table is not empty', () => {
      assert.ok(invalidBots.length >= 30, `${invalidBots.length} rules`);
    });

    for (const fixture of invalidBots) {
      test(`400 INVALID_BOT at ${fixture.path}: ${fixture.rule}`, async () => {
        const res = await server.client.post('/bots', invalidBot(fixture), { token: tenant.accountToken });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.Code, 'INVALID_BOT');
        assert.equal(typeof res.body.Message, 'string');
        assert.ok(Array.isArray(res.body.Problems) && res.body.Problems.length >= 1);
        for (const problem of res.body.Problems) {
          assert.deepEqual(Object.keys(problem).sort(), ['Message', 'Path']);
          assert.equal(typeof problem.Message, 'string');
          assert.ok(problem.Message.length > 0);
        }
        const paths = res.body.Problems.map((p: any) => p.Path);
        assert.ok(paths.includes(fixture.path), `expected a problem at ${fixture.path}, got ${JSON.stringify(res.body.Problems)}`);
      });
    }

    test('a regex that cannot run in linear time is refused with the feature named at its path', async () => {
      const cases: [rule: string, feature: string][] = [
        ['backreference in a bot trigger regex', 'backreference'],
        ['backreference in a behaviour trigger regex', 'backreference'],
        ['lookahead in input expect', 'lookahead'],
        ['lookbehind in variableSwitch matches', 'lookbehind'],
      ];
      for (const [rule, feature] of cases) {
        const fixture = invalidBots.find((f) => f.rule === rule)!;
        const res = await server.client.post('/bots', invalidBot(fixture), { token: tenant.accountToken });
        assert.equal(res.status, 400, rule);
        assert.equal(res.body.Code, 'INVALID_BOT', rule);
        assert.deepEqual(res.body.Problems, [{ Path: fixture.path, Message: `regular expression uses a feature that cannot run in linear time (${feature})` }], rule);
      }
    });

    test('the same rules hold on PUT /bots/{key}: 400 and the draft is unchanged', async () => {
      const before = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      for (const fixture of invalidBots) {
        const res = await server.client.put(`/bots/${tenant.botKey}`, invalidBot(fixture), { token: tenant.accountToken });
        assert.equal(res.status, 400, fixture.rule);
        assert.equal(res.body.Code, 'INVALID_BOT', fixture.rule);
        assert.ok(
          res.body.Problems.some((p: any) => p.Path === fixture.path),
          `${fixture.rule}: ${JSON.stringify(res.body.Problems)}`,
        );
      }
      const afterwards = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.deepEqual(afterwards.body, before.body);
    });

    test('a file with several problems lists them all', async () => {
      const picked = [
        invalidBots.find((f) => f.path === '$.name')!,
        invalidBots.find((f) => f.path === '$.settings.wordsPerMinute')!,
        invalidBots.find((f) => f.path === '$.behaviours[2].start')!,
        invalidBots.find((f) => f.path === '$.triggers[0].actions[0].behaviour')!,
        invalidBots.find((f) => f.path === '$.behaviours[1].triggers[0].match.regex')!,
      ];
      assert.ok(picked.every(Boolean), 'the fixtures used here exist');
      const file = supportBot();
      for (const fixture of picked) fixture.mutate(file);
      const res = await server.client.post('/bots', file, { token: tenant.accountToken });
      assert.equal(res.status, 400);
      assert.equal(res.body.Code, 'INVALID_BOT');
      const paths = res.body.Problems.map((p: any) => p.Path);
      for (const fixture of picked) assert.ok(paths.includes(fixture.path), `${fixture.path} in ${JSON.stringify(paths)}`);
      assert.equal(new Set(paths).size, paths.length, 'each problem is listed once');
    });

    test('nothing was created by any refused file', async () => {
      const res = await server.client.get('/bots', { token: tenant.accountToken });
      assert.equal(res.body.Result.length, botCount);
      assert.deepEqual(
        res.body.Result.map((b: any) => b.APIKey),
        [tenant.botKey],
      );
    });

    test('GET /schema/bot.json is a JSON Schema with an $id', async () => {
      const res = await server.client.get('/schema/bot.json');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /json/);
      assert.equal(typeof res.body.$id, 'string');
      assert.ok(res.body.$id.length > 0);
      assert.equal(typeof res.body.$schema, 'string');
      assert.match(res.body.$schema, /json-schema\.org/);
      assert.equal(res.body.type, 'object');
      assert.ok(res.body.properties && typeof res.body.properties === 'object');
      for (const field of ['format', 'name', 'settings', 'behaviours']) assert.ok(field in res.body.properties, field);
    });
  });
}
