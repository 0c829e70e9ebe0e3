// Issue 11 findings 2, 4, 5 (logs), 10 and 11: limits keyed on verified principals with a throttle
// of failed authentication, the cross-site guard of the console and share links, security headers
// on pages, request logs without personal data, and 413 before `100 Continue`.
import assert from 'node:assert/strict';
import http from 'node:http';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { LOGIN_CHECKS, OperatorSessions } from '../../src/operators/sessions.js';
import { verifyPassword } from '../../src/shared/passwords.js';
import { createAccount } from '../support/fixtures.js';
import { addOperator, botIdOf, consoleClient, login, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { webKeyOf } from '../support/web-kit.js';

const limitsOf = (res: { headers: Headers }) => ({ limit: res.headers.get('x-ratelimit-limit'), remaining: res.headers.get('x-ratelimit-remaining') });

for (const kind of databaseKinds()) {
  describe(`rate limits count verified principals (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_RATE_LIMIT_PER_MINUTE: '3' });
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    test('another spelling of the same Authorization header is the same principal, not a fresh bucket', async () => {
      const headers = [`Bearer ${tenant.botToken}`, `bearer ${tenant.botToken}`, `Bearer    ${tenant.botToken}  `];
      for (const [i, authorization] of headers.entries()) {
        const res = await server.client.get('/custom/config', { headers: { authorization } });
        assert.equal(res.status, 200, res.text);
        assert.equal(limitsOf(res).remaining, String(2 - i));
      }
      const refused = await server.client.get('/custom/config', { headers: { authorization: `BEARER\t${tenant.botToken}` } });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.Code, 'RATE_LIMITED');
    });
  });

  describe(`failed authentication and sign-in have throttles of their own (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_RATE_LIMIT_PER_MINUTE: '6000', COLLOQUY_TRUST_PROXY: 'loopback' });
      tenant = await createTenant(server.client);
      await addOperator(server.client, tenant.accountId, 'ann@example.org');
    });
    after(() => server.close());

    const from = (address: string, more: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...more });

    test('junk tokens from one address: 60 answers 401, then 429 RATE_LIMITED with Retry-After, even for other junk', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        statuses.push((await server.client.get('/custom/config', { headers: from('203.0.113.10', { authorization: `Bearer junk-${i}` }) })).status);
      }
      assert.deepEqual(statuses, Array(60).fill(401));
      const refused = await server.client.get('/custom/config', { headers: from('203.0.113.10', { authorization: 'Bearer other-junk' }) });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.Code, 'RATE_LIMITED');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      // another client address is not affected, and a valid token from it works
      const other = await server.client.get('/custom/config', { headers: from('203.0.113.11', { authorization: `Bearer ${tenant.botToken}` }) });
      assert.equal(other.status, 200, other.text);
    });

    test('one bad credential from many addresses: 10 answers 401, then 429', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push((await server.client.get('/custom/config', { headers: from(`198.51.100.${i + 1}`, { authorization: 'Bearer the-same-guess' }) })).status);
      }
      assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
    });

    test('wrong passwords for one e-mail: 10 answers 401, then 429 even with the right password', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await server.client.post('/console/api/login', { Email: 'ann@example.org', Password: `guess ${i}` }, { headers: from(`192.0.2.${i + 1}`) })).status);
      }
      assert.deepEqual(statuses, Array(10).fill(401));
      const right = await server.client.post('/console/api/login', { Email: 'ANN@example.org', Password: 'correct horse battery' }, { headers: from('192.0.2.99') });
      assert.equal(right.status, 429);
      assert.equal(right.body.Code, 'RATE_LIMITED');
    });

    test('31 widget requests and junk Authorization headers do not touch the sign-in bucket', async () => {
      await addOperator(server.client, tenant.accountId, 'bea@example.org');
      const key = await webKeyOf(server.client, tenant);
      for (let i = 0; i < 31; i++) {
        const res = await server.client.get(`/web/${key}/config`, { headers: from('203.0.113.50') });
        assert.equal(res.status, 200, res.text);
      }
      const signedIn = await server.client.post('/console/api/login', { Email: 'bea@example.org', Password: 'correct horse battery' }, { headers: from('203.0.113.50') });
      assert.equal(signedIn.status, 200, signedIn.text);
    });

    test('sign-in attempts are capped per address even when each carries a different junk Authorization header', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const res = await server.client.post('/console/api/login', { Email: `nobody${i}@example.org`, Password: 'x' }, { headers: from('203.0.113.77', { authorization: `Bearer junk-${i}` }) });
        statuses.push(res.status);
      }
      // the failure throttle of the address (60) is not reached: the sign-in bucket (30) is
      assert.deepEqual(statuses, [...Array(30).fill(401), 429]);
    });

    test('web calls count per web key and client address: with a trusted proxy, X-Forwarded-For separates visitors', async () => {
      const tight = await startTestServer(kind, { COLLOQUY_RATE_LIMIT_PER_MINUTE: '3', COLLOQUY_TRUST_PROXY: '127.0.0.1' });
      try {
        const t = await createTenant(tight.client);
        const key = await webKeyOf(tight.client, t);
        const call = (address: string) => tight.client.get(`/web/${key}/config`, { headers: from(address) });
        for (let i = 0; i < 3; i++) assert.equal((await call('203.0.113.1')).status, 200);
        assert.equal((await call('203.0.113.1')).status, 429);
        assert.equal((await call('203.0.113.2')).status, 200, 'another visitor behind the proxy has its own bucket');
      } finally {
        await tight.close();
      }
      const untrusting = await startTestServer(kind, { COLLOQUY_RATE_LIMIT_PER_MINUTE: '3' });
      try {
        const t = await createTenant(untrusting.client);
        const key = await webKeyOf(untrusting.client, t);
        const call = (address: string) => untrusting.client.get(`/web/${key}/config`, { headers: from(address) });
        for (let i = 0; i < 3; i++) assert.equal((await call(`203.0.113.${i + 1}`)).status, 200);
        assert.equal((await call('203.0.113.9')).status, 429, 'without COLLOQUY_TRUST_PROXY a forged X-Forwarded-For buys nothing');
      } finally {
        await untrusting.close();
      }
    });
  });

  describe(`cross-site requests to the console and share links (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let cookie: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      await addOperator(server.client, tenant.accountId, 'ann@example.org');
      cookie = await signIn(server.client, 'ann@example.org');
    });
    after(() => server.close());

    test('a ban posted from a page on another port of the same host is refused and changes nothing', async () => {
      const user = 'csrf-user';
      assert.equal((await server.client.post('/custom/chat', { UserId: user }, { token: tenant.botToken })).status, 200);
      const botId = await botIdOf(server, tenant.botKey);
      const path = `/console/api/conversations/${botId}/${user}/ban`;
      const port = new URL(server.url).port;
      const attacks: Record<string, string>[] = [
        { cookie, origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' },
        { cookie, origin: 'http://127.0.0.1:1' },
        { cookie, 'sec-fetch-site': 'cross-site' },
        { cookie, origin: 'null' },
      ];
      for (const headers of attacks) {
        const res = await server.client.post(path, {}, { headers });
        assert.equal(res.status, 403, JSON.stringify(headers));
        assert.equal(res.body.Code, 'ORIGIN_FORBIDDEN');
      }
      const state = await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken });
      assert.equal(state.body.State, 0, 'not banned');
      // the console page itself (same origin) still works
      const own = await server.client.post(path, {}, { headers: { cookie, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' } });
      assert.equal(own.status, 200, own.text);
      assert.equal(own.body.State, 3);
    });

    test('share-link messages and sign-in refuse another origin too', async () => {
      const user = 'csrf-share';
      assert.equal((await server.client.post('/custom/chat', { UserId: user }, { token: tenant.botToken })).status, 200);
      const share = await server.client.post('/custom/share', { UserId: user, Mode: 'takeover', Hours: 1 }, { token: tenant.botToken });
      const code = new URL(share.body.Url).pathname.split('/').pop();
      const evil = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
      const sent = await server.client.post(`/share/${code}/api/messages`, { Text: 'forged' }, { headers: evil });
      assert.equal(sent.status, 403);
      assert.equal(sent.body.Code, 'ORIGIN_FORBIDDEN');
      const signedIn = await login(server.client, { Email: 'ann@example.org', Password: 'correct horse battery' }).then(() =>
        server.client.post('/console/api/login', { Email: 'ann@example.org', Password: 'correct horse battery' }, { headers: evil }),
      );
      assert.equal(signedIn.status, 403);
      const history = await server.client.post('/custom/chat', { UserId: user, Command: 'READY' }, { token: tenant.botToken });
      assert.equal(
        history.body.Parts.some((p: any) => p.Text === 'forged'),
        false,
      );
      // reading stays possible: GET is not state-changing
      const read = await consoleClient(server.client, cookie).get('/me');
      assert.equal(read.status, 200);
    });
  });

  describe(`pages carry security headers; logs carry no personal data (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    const lines: string[] = [];
    before(async () => {
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(...String(chunk).split('\n').filter(Boolean));
          done();
        },
      });
      server = await startTestServer(kind, {}, { logger: { level: 'info', stream } });
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    test('/demo and /docs send a CSP with frame-ancestors, nosniff and X-Frame-Options', async () => {
      for (const path of ['/demo', '/docs/']) {
        const res = await fetch(server.url + path);
        assert.equal(res.status, 200, path);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
        assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
        assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /script-src[^;]*'unsafe-inline'/, path);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
        assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      }
      const json = await fetch(`${server.url}/openapi.json`);
      assert.equal(json.headers.get('x-content-type-options'), 'nosniff');
    });

    test('request lines name the route pattern, not the user id, share code or query', async () => {
      const user = 'private-person-4711';
      await server.client.post('/custom/chat', { UserId: user }, { token: tenant.botToken });
      await server.client.get(`/custom/values?userid=${user}`, { token: tenant.botToken });
      const share = await server.client.post('/custom/share', { UserId: user, Mode: 'view', Hours: 1 }, { token: tenant.botToken });
      const code = new URL(share.body.Url).pathname.split('/').pop()!;
      await server.client.get(`/share/${code}/api/conversation`);
      await server.client.get(`/conversation/share/view/${user}/1`, { token: tenant.botToken });
      const requests = lines.filter((line) => line.includes('"msg":"request"'));
      assert.ok(
        requests.some((line) => line.includes('"route":"/share/:code/api/conversation"')),
        requests.join('\n'),
      );
      assert.ok(requests.some((line) => line.includes('"route":"/custom/values"')));
      for (const secret of [user, code, tenant.botToken]) {
        assert.equal(
          lines.some((line) => line.includes(secret)),
          false,
          `${secret} is in the log`,
        );
      }
    });
  });

  describe(`sign-in time does not tell whether or where an e-mail exists (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
      const one = await createAccount(server.client);
      const two = await createAccount(server.client);
      await addOperator(server.client, one.AccountId, 'single@example.org');
      await addOperator(server.client, one.AccountId, 'double@example.org', 'first password');
      await addOperator(server.client, two.AccountId, 'double@example.org', 'second password');
    });
    after(() => server.close());

    test('the same number of password checks for an unknown e-mail, one account and two accounts', async () => {
      let checks = 0;
      const counting = (password: string, stored: string) => {
        checks += 1;
        return verifyPassword(password, stored);
      };
      const sessions = new OperatorSessions(server.running.store, server.running.services.clock, counting);
      const counts: number[] = [];
      for (const email of ['nobody@example.org', 'single@example.org', 'double@example.org']) {
        checks = 0;
        await assert.rejects(sessions.login(email, 'wrong password'), { code: 'INVALID_CREDENTIALS' });
        counts.push(checks);
      }
      assert.deepEqual(counts, [LOGIN_CHECKS, LOGIN_CHECKS, LOGIN_CHECKS]);
      // and the right password of either account still signs in
      checks = 0;
      assert.equal((await sessions.login('double@example.org', 'second password')).operator.email, 'double@example.org');
      assert.equal(checks, LOGIN_CHECKS);
    });
  });

  describe(`Expect: 100-continue with a body over the limit (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    /** Sends headers only, like a client waiting for 100 Continue; the body goes out after it. */
    const expecting = (method: string, path: string, length: number, token: string) =>
      new Promise<{ continued: boolean; status: number; body: any }>((resolve, reject) => {
        const url = new URL(server.url + path);
        let continued = false;
        const request = http.request(
          { host: url.hostname, port: url.port, path, method, headers: { 'content-type': 'application/json', 'content-length': length, expect: '100-continue', authorization: `Bearer ${token}` } },
          (response) => {
            let text = '';
            response.on('data', (chunk) => (text += chunk));
            response.on('end', () => resolve({ continued, status: response.statusCode!, body: JSON.parse(text) }));
          },
        );
        request.on('continue', () => {
          continued = true;
          request.end(JSON.stringify({ UserId: 'expect', Text: 'x'.repeat(Math.max(0, length - 30)) }).padEnd(length, ' '));
        });
        request.on('error', reject);
        request.flushHeaders();
      });

    test('6 MB to POST /bots and 300 KB to /custom/chat: 413 PAYLOAD_TOO_LARGE, no 100 Continue', async () => {
      const bots = await expecting('POST', '/bots', 6 * 1024 * 1024, tenant.accountToken);
      assert.deepEqual([bots.continued, bots.status, bots.body.Code], [false, 413, 'PAYLOAD_TOO_LARGE']);
      const chat = await expecting('POST', '/custom/chat', 300 * 1024, tenant.botToken);
      assert.deepEqual([chat.continued, chat.status, chat.body.Code], [false, 413, 'PAYLOAD_TOO_LARGE']);
    });

    test('a body within the limit gets 100 Continue and its normal answer', async () => {
      const chat = await expecting('POST', '/custom/chat', 2000, tenant.botToken);
      assert.deepEqual([chat.continued, chat.status], [true, 200]);
      assert.equal(chat.body.UserId, 'expect');
    });
  });
}
