// Operator console sign-in (issue 4): the session cookie, wrong passwords and unknown e-mails
// (one same answer), logout, expiry after 12 hours on the injectable clock, forged cookies.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { addOperator, consoleClient, login, sessionToken, signIn, SESSION_COOKIE } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createAccount } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const HOUR = 3_600_000;

for (const kind of databaseKinds()) {
  describe(`console sign-in (${kind})`, () => {
    let server: TestServer;
    let now = Date.parse('2026-11-22T10:00:00Z');
    let accountId: string;
    before(async () => {
      server = await startTestServer(kind, {}, { clock: clockFrom(() => now) });
      accountId = (await createAccount(server.client)).AccountId;
      await addOperator(server.client, accountId, 'ann@example.org', 'right password');
    });
    after(() => server.close());

    test('login sets an HttpOnly, SameSite=Strict session cookie; only its sha256 is stored', async () => {
      const res = await login(server.client, { Email: 'Ann@Example.org', Password: 'right password' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.Email, 'ann@example.org');
      assert.equal(res.body.AccountId, accountId);
      assert.equal(res.body.SessionExpires, new Date(now + 12 * HOUR).toISOString().replace('Z', '+00:00'));
      const cookie = res.headers.get('set-cookie')!;
      assert.match(cookie, new RegExp(`^${SESSION_COOKIE}=[\\w-]{40,};`));
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Strict/);
      assert.match(cookie, /; Path=\/console/);
      assert.match(cookie, /; Max-Age=43200/);
      const token = sessionToken(res);
      const hash = crypto.createHash('sha256').update(token).digest('hex');
      const stored = await server.running.store.operatorSessions.byTokenHash(hash);
      assert.ok(stored, 'the sha256 of the token is stored');
      assert.equal(stored.expiresAt, now + 12 * HOUR);
      assert.equal(await server.running.store.operatorSessions.byTokenHash(token), null, 'the token itself is not');

      const me = await consoleClient(server.client, `${SESSION_COOKIE}=${token}`).get('/me');
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.Email, 'ann@example.org');
    });

    test('a wrong password and an unknown e-mail get the same 401 INVALID_CREDENTIALS, and no cookie', async () => {
      const wrong = await login(server.client, { Email: 'ann@example.org', Password: 'wrong password' });
      const unknown = await login(server.client, { Email: 'nobody@example.org', Password: 'right password' });
      const otherAccount = await login(server.client, { Email: 'ann@example.org', Password: 'right password', AccountId: 'acc-other' });
      for (const res of [wrong, unknown, otherAccount]) {
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, wrong.body);
        assert.equal(res.headers.get('set-cookie'), null);
      }
      assert.equal(wrong.body.Code, 'INVALID_CREDENTIALS');
    });

    test('login validates its body: 400 without e-mail or password', async () => {
      for (const body of [{}, { Email: 'ann@example.org' }, { Password: 'x' }, { Email: null, Password: 'x' }]) {
        const res = await login(server.client, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
    });

    test('no cookie → 401 TOKEN_MISSING; a forged or garbled cookie → 401 TOKEN_INVALID', async () => {
      const none = await server.client.get('/console/api/conversations');
      assert.equal(none.status, 401);
      assert.equal(none.body.Code, 'TOKEN_MISSING');
      for (const cookie of [`${SESSION_COOKIE}=forged`, `${SESSION_COOKIE}=${crypto.randomBytes(32).toString('base64url')}`, `other=1; ${SESSION_COOKIE}=%00`]) {
        const res = await consoleClient(server.client, cookie).get('/conversations');
        assert.equal(res.status, 401, cookie);
        assert.equal(res.body.Code, 'TOKEN_INVALID');
      }
      // a bearer token is not a console session
      const bearer = await server.client.get('/console/api/me', { token: 'anything' });
      assert.equal(bearer.body.Code, 'TOKEN_MISSING');
    });

    test('logout deletes the session: the old cookie is refused afterwards', async () => {
      const cookie = await signIn(server.client, 'ann@example.org', 'right password');
      const c = consoleClient(server.client, cookie);
      assert.equal((await c.get('/me')).status, 200);
      const out = await c.post('/logout');
      assert.equal(out.status, 200);
      assert.match(out.headers.get('set-cookie')!, /Max-Age=0/);
      const hash = crypto.createHash('sha256').update(cookie.split('=')[1]!).digest('hex');
      assert.equal(await server.running.store.operatorSessions.byTokenHash(hash), null);
      const again = await c.get('/me');
      assert.equal(again.status, 401);
      assert.equal(again.body.Code, 'TOKEN_INVALID');
    });

    test('a session expires 12 hours after sign-in (injectable clock)', async () => {
      const cookie = await signIn(server.client, 'ann@example.org', 'right password');
      const c = consoleClient(server.client, cookie);
      const start = now;
      try {
        now = start + 12 * HOUR - 1;
        assert.equal((await c.get('/conversations')).status, 200);
        now = start + 12 * HOUR;
        const expired = await c.get('/conversations');
        assert.equal(expired.status, 401);
        assert.equal(expired.body.Code, 'TOKEN_INVALID');
        assert.match(expired.body.Message, /expired/);
        // and it stays refused when the clock goes back: the expired row was deleted
        now = start;
        assert.equal((await c.get('/me')).status, 401);
      } finally {
        now = start;
      }
    });

    test('sign-in attempts are limited per client address when rate limits are on: 429 RATE_LIMITED', async () => {
      const limited = await startTestServer(kind, { COLLOQUY_RATE_LIMIT_PER_MINUTE: '6000' });
      try {
        const statuses: number[] = [];
        // a different e-mail each time: the throttle of failures per e-mail (10) is not what this shows
        for (let i = 0; i < 30; i++) statuses.push((await login(limited.client, { Email: `nobody${i}@example.org`, Password: `guess ${i}` })).status);
        assert.deepEqual(statuses, Array(30).fill(401));
        const last = await login(limited.client, { Email: 'nobody@example.org', Password: 'one more' });
        assert.equal(last.status, 429);
        assert.equal(last.body.Code, 'RATE_LIMITED');
        assert.ok(last.headers.get('retry-after'));
      } finally {
        await limited.close();
      }
    });

    test('an e-mail that is an operator of two accounts signs in to the one whose password matches, or the AccountId', async () => {
      const second = (await createAccount(server.client)).AccountId;
      await addOperator(server.client, second, 'bob@example.org', 'second password', 'Bob');
      const first = (await createAccount(server.client)).AccountId;
      await addOperator(server.client, first, 'bob@example.org', 'first password', 'Bob');
      const bySecond = await login(server.client, { Email: 'bob@example.org', Password: 'second password' });
      assert.equal(bySecond.body.AccountId, second);
      const byFirst = await login(server.client, { Email: 'bob@example.org', Password: 'first password' });
      assert.equal(byFirst.body.AccountId, first);
      const named = await login(server.client, { Email: 'bob@example.org', Password: 'first password', AccountId: second });
      assert.equal(named.status, 401, 'the password of another account does not open this one');
    });
  });
}
