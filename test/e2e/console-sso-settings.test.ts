// The admin API of console single sign-on (governance.md "Single sign-on"): PUT / GET / DELETE
// /admin/accounts/{AccountId}/sso. The client secret is sealed at rest and never answered; a new
// Issuer or ClientId needs it again; the discovery document must load (else 400
// SSO_DISCOVERY_FAILED), through the private-network guard; every field has a bound; a domain
// signs in to one account only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openRaw } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createAccount } from '../support/fixtures.js';
import { startOidcDouble, type OidcDouble } from '../support/oidc-double.js';
import { ADMIN_TOKEN, startTestServer, startTestServerOn, type TestServer } from '../support/server.js';
import { closedPort, putSso, ssoSettings } from '../support/sso-kit.js';

for (const kind of databaseKinds()) {
  describe(`single sign-on settings (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let double: OidcDouble;
    let accountId: string;
    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database);
      double = await startOidcDouble(`${server.url}/console/sso/callback`);
      accountId = (await createAccount(server.client)).AccountId;
    });
    after(async () => {
      await double?.close();
      await server?.close();
      await database?.drop();
    });
    const path = () => `/admin/accounts/${accountId}/sso`;

    test('PUT answers the settings without the secret; GET the same; the secret is sealed in the database', async () => {
      const put = await putSso(
        server,
        accountId,
        ssoSettings(double, { Domains: ['Shop.Example', 'shop.example', 'staff.shop.example'], DefaultRole: 'designer', RoleClaim: 'groups', RoleMap: { admins: 'admin' } }),
      );
      assert.equal(put.status, 200, put.text);
      const { UpdatedAt, ...rest } = put.body;
      assert.match(UpdatedAt, /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual(rest, {
        AccountId: accountId,
        Issuer: double.issuer,
        ClientId: double.clientId,
        Domains: ['shop.example', 'staff.shop.example'],
        DefaultRole: 'designer',
        RoleClaim: 'groups',
        RoleMap: { admins: 'admin' },
        AutoCreate: true,
        RequireSso: false,
      });
      assert.ok(!put.text.includes(double.clientSecret));
      const got = await server.client.get(path(), { token: ADMIN_TOKEN });
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, put.body);
      const row = await rawSecret(database, accountId);
      assert.match(row, /^v1:/);
      assert.ok(!row.includes(double.clientSecret));
      assert.equal((await server.running.store.sso.get(accountId))!.clientSecret, double.clientSecret);
    });

    test('a PUT without ClientSecret keeps the stored one for the same provider, and is refused (400) for a new Issuer or ClientId', async () => {
      const { ClientSecret: _secret, ...withoutSecret } = ssoSettings(double);
      const same = await putSso(server, accountId, { ...withoutSecret, RequireSso: true });
      assert.equal(same.status, 200, same.text);
      assert.equal(same.body.RequireSso, true);
      assert.equal((await server.running.store.sso.get(accountId))!.clientSecret, double.clientSecret);
      for (const changed of [{ ClientId: 'another-client' }, { Issuer: `${double.issuer}/other` }]) {
        const res = await putSso(server, accountId, { ...withoutSecret, ...changed });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.Code, 'MISSING_FIELD');
        assert.equal(res.body.Field, 'ClientSecret');
      }
      assert.equal((await server.running.store.sso.get(accountId))!.clientId, double.clientId, 'nothing changed');
    });

    test('an issuer that does not answer, or whose discovery document names another issuer: 400 SSO_DISCOVERY_FAILED, nothing stored', async () => {
      const before = await server.client.get(path(), { token: ADMIN_TOKEN });
      const gone = await putSso(server, accountId, ssoSettings(double, { Issuer: `http://127.0.0.1:${await closedPort()}` }));
      assert.equal(gone.status, 400, gone.text);
      assert.equal(gone.body.Code, 'SSO_DISCOVERY_FAILED');
      double.lyingIssuer = 'https://evil.example';
      try {
        const lying = await putSso(server, accountId, ssoSettings(double));
        assert.equal(lying.status, 400, lying.text);
        assert.equal(lying.body.Code, 'SSO_DISCOVERY_FAILED');
      } finally {
        double.lyingIssuer = null;
      }
      assert.deepEqual((await server.client.get(path(), { token: ADMIN_TOKEN })).body, before.body);
    });

    test('every field is bounded: 400 INVALID_REQUEST', async () => {
      const bad: Array<Record<string, unknown>> = [
        { Domains: [] },
        { Domains: Array.from({ length: 51 }, (_, i) => `d${i}.example`) },
        { Domains: ['not a domain'] },
        { Domains: ['@shop.example'] },
        { Domains: ['https://shop.example'] },
        { DefaultRole: 'owner' },
        { RoleMap: { admins: 'owner' } },
        { RoleMap: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`g${i}`, 'agent'])) },
        { RoleClaim: 'x'.repeat(101) },
        { ClientSecret: 's'.repeat(4097) },
        { Issuer: `https://idp.example/${'a'.repeat(2048)}` },
        { ClientId: '' },
        { AutoCreate: 'yes' },
      ];
      for (const change of bad) {
        const res = await putSso(server, accountId, ssoSettings(double, change));
        assert.equal(res.status, 400, `${JSON.stringify(change).slice(0, 80)} → ${res.text}`);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
    });

    test('a domain of another account: 409 CONFLICT and nothing of the second account stored; unknown account 404', async () => {
      assert.equal((await putSso(server, accountId, ssoSettings(double))).status, 200);
      const other = (await createAccount(server.client)).AccountId;
      const taken = await putSso(server, other, ssoSettings(double, { Domains: ['other.example', 'shop.example'] }));
      assert.equal(taken.status, 409, taken.text);
      assert.equal(taken.body.Code, 'CONFLICT');
      const none = await server.client.get(`/admin/accounts/${other}/sso`, { token: ADMIN_TOKEN });
      assert.equal(none.status, 404);
      assert.equal(none.body.Code, 'SSO_NOT_CONFIGURED');
      assert.equal(await server.running.store.sso.byDomain('other.example'), null);
      const unknown = await putSso(server, 'no-such-account', ssoSettings(double));
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'ACCOUNT_NOT_FOUND');
    });

    test('DELETE: 204, then 404 SSO_NOT_CONFIGURED, and the domains are free again', async () => {
      const del = await server.client.delete(path(), { token: ADMIN_TOKEN });
      assert.equal(del.status, 204);
      const again = await server.client.delete(path(), { token: ADMIN_TOKEN });
      assert.equal(again.status, 404);
      assert.equal(again.body.Code, 'SSO_NOT_CONFIGURED');
      assert.equal((await server.client.get(path(), { token: ADMIN_TOKEN })).body.Code, 'SSO_NOT_CONFIGURED');
      assert.equal(await server.running.store.sso.byDomain('shop.example'), null);
      assert.deepEqual((await server.client.get('/console/sso/check?email=ann%40shop.example')).body, { Sso: false });
    });

    test('without COLLOQUY_ALLOW_PRIVATE_NETWORK a loopback or plain-http issuer is refused before it is called', async () => {
      const guarded = await startTestServer(kind, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '0' });
      double.requests.length = 0;
      try {
        const account = (await createAccount(guarded.client)).AccountId;
        for (const issuer of [double.issuer, 'https://127.0.0.1:9', 'https://[::1]:9', 'https://10.0.0.1']) {
          const res = await guarded.client.put(`/admin/accounts/${account}/sso`, ssoSettings(double, { Issuer: issuer }), { token: ADMIN_TOKEN });
          assert.equal(res.status, 400, `${issuer} → ${res.text}`);
          assert.equal(res.body.Code, 'SSO_DISCOVERY_FAILED');
        }
        assert.deepEqual(double.requests, [], 'the provider was never called');
      } finally {
        await guarded.close();
      }
    });
  });
}

/** The stored client_secret column as it is in the database. */
async function rawSecret(database: TestDatabase, accountId: string): Promise<string> {
  const raw = await openRaw(database);
  try {
    const [row] = await raw.all('SELECT client_secret FROM account_sso WHERE account_id = $1', [accountId]);
    return String(row.client_secret);
  } finally {
    await raw.close();
  }
}
