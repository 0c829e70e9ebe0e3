// How a Graph API answer is classified: Meta answers several rate limits with 400 and a code, so
// the code decides, not only the status (Graph "Handling Errors", WhatsApp error codes).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { graphPost } from './graph.js';

let next: { status: number; body: unknown; headers?: Record<string, string> };
let seen: { url?: string; authorization?: string; body?: string } = {};
let server: http.Server;
let url: string;

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen = { url: req.url, authorization: req.headers.authorization, body };
      res.writeHead(next.status, { 'content-type': 'application/json', ...(next.headers ?? {}) });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v23.0`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const error = (code: number, extra: Record<string, unknown> = {}) => ({ error: { message: `(#${code}) message`, type: 'OAuthException', code, ...extra } });

test('a success is ok; the call is a JSON POST with the bearer token to the path below the Graph URL', async () => {
  next = { status: 200, body: { messages: [{ id: 'wamid.1' }] } };
  assert.deepEqual(await graphPost(url, '123/messages', 'EAAB', { a: 1 }), { ok: true });
  assert.deepEqual(seen, { url: '/v23.0/123/messages', authorization: 'Bearer EAAB', body: '{"a":1}' });
});

test('rate limits retry whatever the status, with the wait Meta asked for', async () => {
  next = { status: 400, body: error(131056) };
  assert.deepEqual(await graphPost(url, 'p', 't', {}), { ok: false, retry: true, statusCode: 400, error: 'Meta p: 400 (#131056) message' });
  next = { status: 429, body: error(130429), headers: { 'retry-after': '7' } };
  const limited = await graphPost(url, 'p', 't', {});
  assert.deepEqual(limited.ok ? null : [limited.retry, limited.retryAfterMs], [true, 7000]);
  next = { status: 403, body: error(80007), headers: { 'x-business-use-case-usage': JSON.stringify({ '123': [{ type: 'messenger', call_count: 100, estimated_time_to_regain_access: 2 }] }) } };
  const business = await graphPost(url, 'p', 't', {});
  assert.deepEqual(business.ok ? null : [business.retry, business.retryAfterMs], [true, 120_000]);
});

test('5xx and transient codes retry; other 4xx do not', async () => {
  for (const [status, body, retry] of [
    [500, {}, true],
    [400, error(2, { is_transient: true }), true],
    [400, error(131000), true],
    [400, error(100), false],
    [401, error(190), false],
    [404, 'nope', false],
  ] as const) {
    next = { status, body };
    const result = await graphPost(url, 'p', 't', {});
    assert.deepEqual(result.ok ? null : [result.retry, result.statusCode], [retry, status], JSON.stringify(body));
  }
});

test('nobody listening is a retry without a status', async () => {
  const result = await graphPost('http://127.0.0.1:1/v23.0', 'p', 't', {});
  assert.deepEqual(result.ok ? null : [result.retry, result.statusCode], [true, null]);
});
