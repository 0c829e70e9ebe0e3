// Console single sign-on end to end (issue 42, governance.md "Single sign-on"), with a real OpenID
// Provider on loopback (test/support/oidc-double.ts): a sign-in makes a session like a password's,
// operators are made and re-roled from the claims at each sign-in, RequireSso refuses passwords,
// and every way a callback or an ID token can be wrong ends on the sign-in page with its Code and
// no session (bad signature, issuer, audience, expiry, nonce, state, a replayed code, an e-mail not
// verified or outside the domains, an unreachable or lying discovery document); never a 5xx.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DISCOVERY_TTL_MS } from '../../src/integrations/oidc-providers.js';
import { clockFrom } from '../../src/shared/clock.js';
import { addOperator, consoleClient, login } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createAccount } from '../support/fixtures.js';
import { startOidcDouble, type OidcDouble } from '../support/oidc-double.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { answerOf, closedPort, getManual, putSso, ssoSettings, ssoSignIn, throughProvider } from '../support/sso-kit.js';

const ANN = { sub: 'ann', email: 'ann@shop.example', email_verified: true, name: 'Ann Shop' };

for (const kind of databaseKinds()) {
  describe(`console single sign-on (${kind})`, () => {
    let server: TestServer;
    let double: OidcDouble;
    let accountId: string;
    let offset = 0;
    before(async () => {
      server = await startTestServer(kind, {}, { clock: clockFrom(() => Date.now() + offset) });
      double = await startOidcDouble(`${server.url}/console/sso/callback`);
      accountId = (await createAccount(server.client)).AccountId;
      const put = await putSso(server, accountId, ssoSettings(double, { RoleClaim: 'groups', RoleMap: { 'chat-admins': 'admin', 'chat-designers': 'designer' } }));
      assert.equal(put.status, 200, put.text);
    });
    after(async () => {
      await double?.close();
      await server?.close();
    });
    beforeEach(() => {
      double.user = { ...ANN };
      double.tamper = null;
      double.foreignKey = false;
      double.lyingIssuer = null;
      offset = 0;
    });

    /** A sign-in that must fail with `code`: back on the sign-in page, no cookie. */
    async function refused(code: string, answer?: Awaited<ReturnType<typeof ssoSignIn>>) {
      const got = answer ?? (await ssoSignIn(server, double));
      assert.deepEqual(got, { status: 302, location: `/console?sso_error=${code}`, cookie: null, error: code });
    }

    test('the sign-in page asks first: an e-mail of an SSO domain signs in with SSO, others with a password', async () => {
      for (const [email, sso] of [
        ['ann@shop.example', true],
        ['ANN@Shop.Example', true],
        ['ann@other.example', false],
        ['no-at-sign', false],
      ] as const) {
        const res = await server.client.get(`/console/sso/check?email=${encodeURIComponent(email)}`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { Sso: sso }, email);
      }
      await refused('SSO_NOT_CONFIGURED', await answerOf(await getManual(`${server.url}/console/sso/start?email=bob%40other.example`)));
    });

    test('the start sends the browser to the issuer with the code flow, PKCE S256, state, nonce and the e-mail as hint', async () => {
      const start = await getManual(`${server.url}/console/sso/start?email=ann%40shop.example`);
      assert.equal(start.status, 302);
      const to = new URL(start.headers.get('location')!);
      assert.equal(to.origin, double.issuer);
      assert.equal(to.searchParams.get('response_type'), 'code');
      assert.equal(to.searchParams.get('client_id'), double.clientId);
      assert.equal(to.searchParams.get('redirect_uri'), `${server.url}/console/sso/callback`);
      assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
      assert.match(to.searchParams.get('code_challenge')!, /^[\w-]{43}$/);
      assert.match(to.searchParams.get('state')!, /^[\w-]{20,}$/);
      assert.match(to.searchParams.get('nonce')!, /^[\w-]{20,}$/);
      assert.equal(to.searchParams.get('login_hint'), 'ann@shop.example');
      assert.equal(start.headers.get('cache-control'), 'no-store');
    });

    test('a first sign-in makes the operator (AutoCreate) with the role its groups map to; the next re-reads the role', async () => {
      double.user = { ...ANN, groups: ['staff', 'chat-designers', 'chat-admins'] };
      const first = await ssoSignIn(server, double);
      assert.equal(first.status, 302);
      assert.equal(first.location, '/console');
      assert.ok(first.cookie);
      const me = await consoleClient(server.client, first.cookie).get('/me');
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.Email, 'ann@shop.example');
      assert.equal(me.body.Name, 'Ann Shop');
      assert.equal(me.body.AccountId, accountId);
      assert.equal(me.body.Role, 'designer', 'the first group RoleMap names wins');

      double.user = { ...ANN, groups: ['staff'] };
      const second = await ssoSignIn(server, double);
      const again = await consoleClient(server.client, second.cookie!).get('/me');
      assert.equal(again.body.OperatorId, me.body.OperatorId, 'the same operator');
      assert.equal(again.body.Role, 'agent', 'no mapped group: DefaultRole');
      // the first session obeys the new role from its next request
      const old = await consoleClient(server.client, first.cookie).get('/bots');
      assert.equal(old.status, 403);
      assert.equal(old.body.Code, 'ROLE_FORBIDDEN');
      // an SSO operator has no password that works
      for (const password of ['sso', '']) assert.equal((await login(server.client, { Email: 'ann@shop.example', Password: password || 'x' })).status, 401);
    });

    test('an ID token re-signed with the provider key is accepted: the signature test below fails on the signature alone', async () => {
      double.tamper = (claims) => claims;
      const ok = await ssoSignIn(server, double);
      assert.ok(ok.cookie, JSON.stringify(ok));
    });

    test('an ID token signed with a key not in the JWKS: SSO_TOKEN_INVALID', async () => {
      double.tamper = (claims) => claims;
      double.foreignKey = true;
      await refused('SSO_TOKEN_INVALID');
    });

    const wrongClaims: Array<[string, (claims: Record<string, unknown>) => Record<string, unknown>]> = [
      ['another issuer', (c) => ({ ...c, iss: 'https://evil.example' })],
      ['another audience', (c) => ({ ...c, aud: 'someone-else' })],
      ['expired', (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })],
      ['another nonce', (c) => ({ ...c, nonce: 'not-the-nonce-we-sent' })],
      ['no nonce', ({ nonce: _gone, ...c }) => c],
    ];
    for (const [what, tamper] of wrongClaims) {
      test(`an ID token with ${what}: SSO_TOKEN_INVALID`, async () => {
        double.tamper = tamper;
        await refused('SSO_TOKEN_INVALID');
      });
    }

    test('an e-mail not verified, outside the domains, or missing: SSO_EMAIL_REFUSED', async () => {
      for (const user of [{ ...ANN, email_verified: false }, { ...ANN, email: 'ann@elsewhere.example' }, { sub: 'ann' }]) {
        double.user = user;
        await refused('SSO_EMAIL_REFUSED');
      }
    });

    test('a state we did not send, none, or one that expired: SSO_STATE_INVALID', async () => {
      const callback = new URL(await throughProvider(server, double));
      const forged = new URL(callback);
      forged.searchParams.set('state', 'forged-state-0123456789');
      await refused('SSO_STATE_INVALID', await answerOf(await getManual(forged.href)));
      const none = new URL(callback);
      none.searchParams.delete('state');
      await refused('SSO_STATE_INVALID', await answerOf(await getManual(none.href)));
      offset = 10 * 60_000 + 1;
      await refused('SSO_STATE_INVALID', await answerOf(await getManual(callback.href)));
    });

    test('a replayed callback, and a used code under a fresh state: refused, no second session', async () => {
      const callback = await throughProvider(server, double);
      const first = await answerOf(await getManual(callback));
      assert.ok(first.cookie);
      await refused('SSO_STATE_INVALID', await answerOf(await getManual(callback)));
      const fresh = new URL(await throughProvider(server, double));
      fresh.searchParams.set('code', new URL(callback).searchParams.get('code')!);
      await refused('SSO_TOKEN_INVALID', await answerOf(await getManual(fresh.href)));
    });

    test('the provider answering with an error: SSO_PROVIDER_REFUSED', async () => {
      const start = await getManual(`${server.url}/console/sso/start?email=ann%40shop.example`);
      const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
      const back = await getManual(`${server.url}/console/sso/callback?error=access_denied&state=${state}`);
      await refused('SSO_PROVIDER_REFUSED', await answerOf(back));
    });

    test('a discovery document that names another issuer, or none that answers: SSO_DISCOVERY_FAILED', async () => {
      // the kept document has expired: the lie is read
      offset = DISCOVERY_TTL_MS;
      double.lyingIssuer = 'https://evil.example';
      await refused('SSO_DISCOVERY_FAILED', await answerOf(await getManual(`${server.url}/console/sso/start?email=ann%40shop.example`)));
      // the lie told between the start and the callback, read once the document kept at the start expired
      double.lyingIssuer = null;
      const callback = await throughProvider(server, double);
      double.lyingIssuer = 'https://evil.example';
      offset += DISCOVERY_TTL_MS;
      await refused('SSO_DISCOVERY_FAILED', await answerOf(await getManual(callback)));
      // the provider gone (settings written past the admin route's own check)
      const stored = (await server.running.store.sso.get(accountId))!;
      const gone = `http://127.0.0.1:${await closedPort()}`;
      await server.running.store.transaction((tx) => tx.sso.put({ ...stored, issuer: gone }));
      try {
        await refused('SSO_DISCOVERY_FAILED', await answerOf(await getManual(`${server.url}/console/sso/start?email=ann%40shop.example`)));
      } finally {
        await server.running.store.transaction((tx) => tx.sso.put(stored));
      }
    });

    test("the provider's discovery document and JWKS are loaded once per DISCOVERY_TTL_MS, again after it and after a refused token", async () => {
      const loads = () => ({
        discovery: double.requests.filter((path) => path === '/.well-known/openid-configuration').length,
        jwks: double.requests.filter((path) => path === '/jwks').length,
      });
      // past what earlier tests left kept
      offset = DISCOVERY_TTL_MS;
      const before = loads();
      for (let i = 0; i < 3; i++) assert.ok((await ssoSignIn(server, double)).cookie);
      assert.deepEqual(loads(), { discovery: before.discovery + 1, jwks: before.jwks + 1 }, 'three starts and three callbacks, one load of each');
      // a minute short of the TTL (the clock also moves with real time while the test runs)
      offset += DISCOVERY_TTL_MS - 60_000;
      assert.ok((await ssoSignIn(server, double)).cookie);
      assert.deepEqual(loads(), { discovery: before.discovery + 1, jwks: before.jwks + 1 }, 'still within the TTL');
      offset += 60_000;
      assert.ok((await ssoSignIn(server, double)).cookie);
      assert.deepEqual(loads(), { discovery: before.discovery + 2, jwks: before.jwks + 2 }, 'expired: loaded afresh');
      double.tamper = (claims) => claims;
      double.foreignKey = true;
      await refused('SSO_TOKEN_INVALID');
      double.foreignKey = false;
      assert.ok((await ssoSignIn(server, double)).cookie);
      assert.deepEqual(loads(), { discovery: before.discovery + 3, jwks: before.jwks + 3 }, 'a refused token makes the next sign-in load the provider afresh');
    });

    test('without AutoCreate an unknown e-mail is refused (SSO_NO_OPERATOR); a known one signs in', async () => {
      assert.equal((await putSso(server, accountId, ssoSettings(double, { AutoCreate: false }))).status, 200);
      try {
        double.user = { sub: 'cy', email: 'cy@shop.example', email_verified: true };
        await refused('SSO_NO_OPERATOR');
        await addOperator(server.client, accountId, 'cy@shop.example', 'a password of cy', 'Cy', 'agent');
        const ok = await ssoSignIn(server, double);
        assert.ok(ok.cookie);
      } finally {
        assert.equal((await putSso(server, accountId, ssoSettings(double, { RoleClaim: 'groups', RoleMap: { 'chat-admins': 'admin', 'chat-designers': 'designer' } }))).status, 200);
      }
    });

    test('RequireSso: a right password gets 401 SSO_REQUIRED, a wrong one still INVALID_CREDENTIALS; off again, the password works', async () => {
      await addOperator(server.client, accountId, 'dee@shop.example', 'the password of dee', 'Dee', 'agent');
      assert.equal((await putSso(server, accountId, ssoSettings(double, { RequireSso: true }))).status, 200);
      const right = await login(server.client, { Email: 'dee@shop.example', Password: 'the password of dee' });
      assert.equal(right.status, 401);
      assert.equal(right.body.Code, 'SSO_REQUIRED');
      assert.equal(right.headers.get('set-cookie'), null);
      const wrong = await login(server.client, { Email: 'dee@shop.example', Password: 'not the password' });
      assert.equal(wrong.body.Code, 'INVALID_CREDENTIALS');
      assert.equal((await putSso(server, accountId, ssoSettings(double, { RequireSso: false }))).status, 200);
      assert.equal((await login(server.client, { Email: 'dee@shop.example', Password: 'the password of dee' })).status, 200);
    });
  });
}
