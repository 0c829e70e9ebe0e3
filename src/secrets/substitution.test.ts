import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate } from '../shared/template.js';
import type { SecretValue } from './model.js';
import { SecretFiller, type OutboundRequest } from './substitution.js';

const VALUE = 'a "b"&c=d\\e';
const secrets: SecretValue[] = [
  { name: 'key', value: VALUE, hosts: ['api.example'] },
  { name: 'crlf', value: 'x\r\nX-Injected: 1', hosts: ['api.example'] },
];
let reads = 0;
const filler = new SecretFiller({
  secrets: {
    put: async () => undefined,
    list: async () => [],
    count: async () => 0,
    remove: async () => false,
    values: async (_botId, names) => ((reads += 1), secrets.filter((s) => names.includes(s.name))),
  },
});
const slotted = (text: string) => renderTemplate(text, {}, { secretSlots: true });
const request = (fields: Partial<OutboundRequest>): OutboundRequest => ({ method: 'POST', url: 'https://api.example/x', headers: {}, body: null, timeoutMs: 1000, ...fields });

test('a request without slots is returned as it is, without reading the secrets', async () => {
  const plain = request({ url: 'https://api.example/?a=1' });
  reads = 0;
  const filled = await filler.fill('bot', plain);
  assert.equal(filled.request, plain);
  assert.deepEqual(filled.notes, []);
  assert.equal(reads, 0);
});

test('the body: JSON-escaped for a JSON type or a body that starts like JSON, form-encoded for a form, as is otherwise', async () => {
  const body = async (b: string, headers: Record<string, string> = {}) => (await filler.fill('bot', request({ body: slotted(b), headers }))).request.body;
  assert.deepEqual(JSON.parse((await body('{"k":"{{secret.key}}"}'))!), { k: VALUE });
  assert.deepEqual(JSON.parse((await body('{"k":"{{secret.key}}"}', { 'content-type': 'application/vnd.api+json' }))!), { k: VALUE });
  assert.equal(new URLSearchParams((await body('k={{secret.key}}&z=1', { 'Content-Type': 'application/x-www-form-urlencoded' }))!).get('k'), VALUE);
  assert.equal(await body('token {{secret.key}}', { 'Content-Type': 'text/plain' }), `token ${VALUE}`);
});

test('a value a header cannot carry is sent empty, with a note', async () => {
  const filled = await filler.fill('bot', request({ headers: { 'X-A': slotted('{{secret.crlf}}') } }));
  assert.deepEqual(filled.request.headers, { 'X-A': '' });
  assert.deepEqual(filled.notes, ['secret crlf: cannot be sent in a header (line break or NUL); sent empty']);
});

test('another host, an unknown name: empty, and the notes say so (names and hosts only)', async () => {
  const filled = await filler.fill('bot', request({ url: slotted('https://other.example/?k={{secret.key}}&m={{secret.nope}}') }));
  assert.equal(filled.request.url, 'https://other.example/?k=&m=');
  assert.deepEqual(filled.notes, ['secret key: not sent to other.example (not one of its Hosts); sent empty', 'secret nope: the bot has no secret of this name; sent empty']);
});

test('the answer: every form of a value sent is masked; nothing else changes', async () => {
  const filled = await filler.fill('bot', request({ url: slotted('https://API.example/?k={{secret.key}}') }));
  assert.equal(new URL(filled.request.url).searchParams.get('k'), VALUE);
  const echoed = JSON.stringify({ raw: VALUE, url: encodeURIComponent(VALUE), other: 'x' });
  assert.deepEqual(JSON.parse(filled.mask({ status: 200, body: echoed }).body), { raw: '[secret key]', url: '[secret key]', other: 'x' });
  const untouched = { status: 200 as const, body: 'nothing here' };
  assert.equal(filled.mask(untouched), untouched);
});
