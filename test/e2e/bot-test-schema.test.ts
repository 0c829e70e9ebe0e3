// GET /schema/bot-test.json: the test file format's JSON Schema, as an editor fetches it. It must
// compile in strict mode, accept the project's own test files and refuse what `colloquy test`
// refuses; /openapi.json lists it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { startTestServer, type TestServer } from '../support/server.js';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
let server: TestServer;
before(async () => {
  server = await startTestServer('sqlite');
});
after(() => server.close());

test('GET /schema/bot-test.json is a strict JSON Schema that accepts the example test files and refuses broken ones', async () => {
  const res = await fetch(`${server.url}/schema/bot-test.json`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/schema\+json/);
  const schema = (await res.json()) as Record<string, unknown>;
  assert.equal(schema.$id, '/schema/bot-test.json');
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true }); // as src/bots/schema.test.ts compiles the bot schema
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  const files = fs
    .readdirSync(EXAMPLES, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.yaml'));
  assert.deepEqual(files.sort(), ['demo/demo.test.yaml', 'shop/shop.test.yaml', 'support/support.test.yaml']);
  for (const file of files) assert.ok(validate(parseYaml(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`);
  const ok = { bot: 'x.bot.yaml', tests: [{ name: 't', steps: [{ bot: 'hi' }] }] };
  assert.equal(validate(ok), true);
  const scripted = { name: 't', stubs: { model: [{ call: { tool: 'order_status', arguments: { order: '123456' } } }, { say: 'Shipped.' }, { fail: 'TIMEOUT' }] }, steps: [{ user: 'hi' }] };
  assert.equal(validate({ ...ok, tests: [scripted] }), true, JSON.stringify(validate.errors));
  for (const broken of [
    { tests: ok.tests },
    { ...ok, tests: [] },
    { ...ok, tests: [{ name: 't', steps: [{ say: 'hi' }] }] },
    { ...ok, tests: [{ name: 't', steps: [{ bot: 'hi', user: 'yo' }] }] },
    { ...ok, tests: [{ name: 't', steps: [{ bot: { contains: 'a', regex: 'b' } }] }] },
    { ...ok, tests: [{ name: 't', now: 'tomorrow', steps: [{ bot: 'hi' }] }] },
    { ...ok, tests: [{ name: 't', stubs: { callApi: [{ status: 200 }] }, steps: [{ bot: 'hi' }] }] },
    { ...ok, tests: [{ name: 't', stubs: { ai: [{ answer: 'x' }] }, steps: [{ bot: 'hi' }] }] },
    { ...ok, tests: [{ name: 't', stubs: { model: [{ say: 'hi', fail: 'ERROR' }] }, steps: [{ bot: 'hi' }] }] },
    { ...ok, tests: [{ name: 't', stubs: { model: [{ call: { tool: 'two words' } }] }, steps: [{ bot: 'hi' }] }] },
  ]) {
    assert.equal(validate(broken), false, JSON.stringify(broken));
  }
  const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { get?: { summary?: string } }> };
  assert.match(openapi.paths['/schema/bot-test.json']?.get?.summary ?? '', /conversation test files/);
});
