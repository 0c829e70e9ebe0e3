// Issue 35 finding 1: a YAML bot file froze the server (the parser's duplicate-key check was
// quadratic, `[[[[` recursed once per bracket): 20,000 keys 17 s, a 2 MB list 37 s, a 1 MB `[[[[`
// 72 s and a stack overflow, 600,000 keys over 4 minutes, `/health` blocked throughout. Every route
// that takes a bot file now bounds it before parsing and answers 400 INVALID_BOT naming the bound;
// large files are read off the request thread. How long each took, before and after, is measured
// by bench/bot-file-bounds.ts (docs/performance.md "Bot files (issue 35)"), not asserted here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { aliasBomb, deepBlock, flowBrackets, json600kKeys, largeBot, yaml600kKeys, yamlKeys, yamlList } from '../support/bot-file-attacks.js';
import { addOperator, botIdOf, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Response } from '../support/client.js';

const YAML = 'application/yaml';
const JSON_TYPE = 'application/json';

/** Each hostile file, its media type, and the bound it must be refused by. */
const attacks: { name: string; text: () => string; type: string; limit: string; max: number }[] = [
  { name: '60,000 keys', text: () => yamlKeys(60_000), type: YAML, limit: 'BotFileNodes', max: 100_000 },
  { name: '600,000 keys in 4.8 MB', text: yaml600kKeys, type: YAML, limit: 'BotFileNodes', max: 100_000 },
  { name: 'a 1 MB [[[[', text: () => flowBrackets(1 << 20), type: YAML, limit: 'BotFileDepth', max: 200 },
  { name: 'a 2 MB list', text: () => yamlList(2 << 20), type: YAML, limit: 'BotFileNodes', max: 100_000 },
  { name: 'block keys nested 300 deep', text: () => deepBlock(300), type: YAML, limit: 'BotFileDepth', max: 200 },
  { name: '2,000 aliases', text: () => aliasBomb(2_000), type: YAML, limit: 'BotFileAnchors', max: 1_000 },
  { name: 'a JSON bot of 600,000 keys', text: json600kKeys, type: JSON_TYPE, limit: 'BotFileNodes', max: 100_000 },
];

/** A bot file with `keys` junk keys and then `name` written twice (a hand-written file's mistake). */
const duplicateKeys = (keys: number) => ['format: colloquy/bot@1', ...(keys > 0 ? [yamlKeys(keys)] : []), 'name: One', 'name: Two', 'behaviours: []'].join('\n');

for (const kind of databaseKinds()) {
  describe(`bot file bounds on every route that takes one (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let cookie: string;
    let botId: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      botId = await botIdOf(server, tenant.botKey);
      await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee Signer', 'designer');
      cookie = await signIn(server.client, 'dee@example.org');
    });
    after(() => server.close());

    const routes: { name: string; send: (text: string, contentType: string) => Promise<Response> }[] = [
      { name: 'POST /bots', send: (raw, contentType) => server.client.post('/bots', undefined, { token: tenant.accountToken, raw, contentType }) },
      { name: 'POST /bots/restore', send: (raw, contentType) => server.client.post('/bots/restore', undefined, { token: tenant.accountToken, raw, contentType }) },
      { name: 'PUT /bots/{key}', send: (raw, contentType) => server.client.put(`/bots/${tenant.botKey}`, undefined, { token: tenant.accountToken, raw, contentType }) },
      { name: 'designer draft save', send: (raw, contentType) => server.client.put(`/console/api/bots/${botId}/draft`, undefined, { headers: { cookie }, raw, contentType }) },
    ];

    for (const attack of attacks) {
      test(`${attack.name}: 400 INVALID_BOT, Limit ${attack.limit}, on every route; /health answers meanwhile`, async () => {
        const text = attack.text();
        for (const route of routes) {
          const pending = route.send(text, attack.type);
          const health = await server.client.get('/health');
          assert.equal(health.status, 200, health.text);
          const res = await pending;
          assert.equal(res.status, 400, `${route.name}: ${res.text.slice(0, 300)}`);
          assert.equal(res.body.Code, 'INVALID_BOT', route.name);
          assert.equal(res.body.Limit, attack.limit, route.name);
          assert.equal(res.body.Max, attack.max, route.name);
          assert.equal(res.body.Problems[0].Path, '$');
        }
      });
    }

    test("the issue's 20,000 keys: 400 INVALID_BOT listing the problems on every route; the designer keeps it as a draft with them", async () => {
      for (const route of routes) {
        const res = await route.send(yamlKeys(20_000), YAML);
        // within the bounds, an object: a draft with problems, which the console keeps (issue 37 item 6)
        const kept = route.name === 'designer draft save';
        assert.equal(res.status, kept ? 200 : 400, route.name);
        if (!kept) assert.equal(res.body.Code, 'INVALID_BOT');
        assert.equal(res.body.Limit, undefined);
        assert.ok(res.body.Problems.length > 100, route.name);
      }
    });

    test('a key written twice: the line and column, small and large files alike', async () => {
      for (const route of routes) {
        const small = await route.send(duplicateKeys(0), YAML);
        assert.equal(small.status, 400, route.name);
        assert.equal(small.body.Code, 'INVALID_BOT');
        assert.deepEqual(small.body.Problems, [{ Path: '$', Message: 'invalid YAML: Map keys must be unique at line 3, column 1:' }]);
        const large = await route.send(duplicateKeys(20_000), YAML);
        assert.equal(large.status, 400, route.name);
        assert.deepEqual(large.body.Problems, [{ Path: '$', Message: 'invalid YAML: Map keys must be unique at line 20003, column 1:' }]);
      }
    });

    test('a large JSON body read off the thread answers as the JSON parser does: INVALID_JSON, NUL, __proto__', async () => {
      const big = JSON.stringify(largeBot(1_000));
      assert.ok(big.length > 64 * 1024);
      const send = (raw: string) => server.client.post('/bots', undefined, { token: tenant.accountToken, raw, contentType: JSON_TYPE });
      const malformed = await send(big.slice(0, -1));
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.Code, 'INVALID_JSON');
      const nul = await send(big.replace('"Anything else?"', '"Anything\\u0000 else?"'));
      assert.equal(nul.status, 400);
      assert.equal(nul.body.Code, 'INVALID_REQUEST');
      // a `__proto__` member is removed, not refused: the bot is created without it
      const poisoned = await send(big.replace('"name":"Large"', '"name":"Large","__proto__":{"polluted":true}'));
      assert.equal(poisoned.status, 201, poisoned.text);
      assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    });

    test('a legitimate large bot (2,000 interactions) is accepted as JSON and as YAML on every route', async () => {
      const bot = largeBot(2_000);
      for (const [text, type] of [
        [JSON.stringify(bot), JSON_TYPE],
        [stringify(bot), YAML],
      ] as const) {
        assert.ok(text.length > 64 * 1024);
        for (const route of routes) {
          const res = await route.send(text, type);
          assert.ok(res.status === 200 || res.status === 201, `${route.name} ${type}: ${res.status} ${res.text.slice(0, 300)}`);
          assert.equal(res.body.APIKey === undefined, false);
        }
      }
      const draft = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.equal(draft.body.behaviours[0].interactions.length, 2_000);
      assert.equal(draft.body.behaviours[0].interactions[1999].name, 'Step 1999');
    });
  });
}
