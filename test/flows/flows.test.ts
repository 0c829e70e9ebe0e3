// Plays every transcript script in test/flows/*.flow.yaml against a real server (runner.ts), on
// every database kind. Bots' random picks are made deterministic (the first of `texts`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { botOf, FLOWS_DIR, loadFlow, runConversation } from './runner.js';

const scripts = fs
  .readdirSync(FLOWS_DIR)
  .filter((name) => name.endsWith('.flow.yaml'))
  .sort();

/** The local HTTP service the api bot calls (`{{api_url}}`). */
function apiServer(): http.Server {
  return http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const send = (status: number, body: string, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      const url = new URL(req.url ?? '/', 'http://local');
      const order = /^\/orders\/(\w+)$/.exec(url.pathname);
      if (order && req.method === 'GET') {
        const items = order[1] === '42' ? [{ name: 'Toaster', price: 25 }] : [];
        return send(200, JSON.stringify({ data: { items }, token: req.headers['x-token'] ?? null }));
      }
      if (url.pathname === '/fail') return send(500, 'boom', 'text/plain');
      if (url.pathname === '/echo') {
        return send(201, JSON.stringify({ method: req.method, body: raw === '' ? null : JSON.parse(raw), token: req.headers['x-token'] ?? null }));
      }
      send(404, 'no such route', 'text/plain');
    });
  });
}

test('there are transcript scripts, and each one parses', () => {
  assert.ok(scripts.length >= 5, `found ${scripts.join(', ')}`);
  for (const name of scripts) loadFlow(path.join(FLOWS_DIR, name));
});

for (const kind of databaseKinds()) {
  describe(`transcripts (${kind})`, () => {
    let server: TestServer;
    const api = apiServer();
    const env: Record<string, string> = {};
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '1' }, { random: () => 0 });
      await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
      env.API_URL = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    });
    after(async () => {
      await server.close();
      await new Promise((resolve) => api.close(resolve));
    });

    for (const name of scripts) {
      const script = loadFlow(path.join(FLOWS_DIR, name));
      describe(name, () => {
        let token: string;
        before(async () => {
          token = (await createTenant(server.client, botOf(script))).botToken;
        });
        script.conversations.forEach((conversation, i) => {
          test(conversation.name, () => runConversation(server, token, conversation, `flow-${name}-${i}-${Date.now()}`, env));
        });
      });
    }
  });
}
