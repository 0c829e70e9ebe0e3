// api.md "Administration": accounts and operators with the admin token.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

const admin = { token: ADMIN_TOKEN };
const currentMonth = () => new Date().toISOString().slice(0, 7);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

for (const kind of databaseKinds()) {
  describe(`administration (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(() => server.close());

    const createAccount = async (body: unknown) => {
      const res = await server.client.post('/admin/accounts', body, admin);
      assert.equal(res.status, 201, res.text);
      return res.body;
    };

    const expectInvalid = async (pending: Promise<{ status: number; body: any }>, field: string) => {
      const res = await pending;
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.Code, 'INVALID_REQUEST');
      assert.equal(res.body.Field, field);
      assert.ok(res.body.Message.includes(field), `the message names ${field}: ${res.body.Message}`);
    };

    test('POST /admin/accounts → 201 with exactly {AccountId, AccountAPIKey, Name, Plan, Packages}', async () => {
      const res = await server.client.post('/admin/accounts', { Name: 'ACME', Plan: 'standard' }, admin);
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body).sort(), ['AccountAPIKey', 'AccountId', 'Name', 'Packages', 'Plan']);
      assert.equal(res.body.Name, 'ACME');
      assert.equal(res.body.Plan, 'standard');
      assert.deepEqual(res.body.Packages, []);
      assert.match(res.body.AccountId, /^\S{8,}$/);
      assert.match(res.body.AccountAPIKey, /^\S{16,}$/);
      assert.notEqual(res.body.AccountId, res.body.AccountAPIKey);
    });

    test('POST /admin/accounts with Packages and a free plan; field names case-insensitive', async () => {
      const res = await server.client.post('/admin/accounts', { name: 'Masters', plan: 'free', packages: ['master-bot'] }, admin);
      assert.equal(res.status, 201);
      assert.equal(res.body.Name, 'Masters');
      assert.equal(res.body.Plan, 'free');
      assert.deepEqual(res.body.Packages, ['master-bot']);
    });

    test('two accounts get different ids and keys', async () => {
      const a = await createAccount({ Name: 'A', Plan: 'standard' });
      const b = await createAccount({ Name: 'B', Plan: 'standard' });
      assert.notEqual(a.AccountId, b.AccountId);
      assert.notEqual(a.AccountAPIKey, b.AccountAPIKey);
    });

    test('GET /admin/accounts/{id} → the account (its key is shown only at creation) with its AuditDays (365 by default) and Usage of the current month, all zero', async () => {
      const { AccountAPIKey: _key, ...created } = await createAccount({ Name: 'Usage', Plan: 'standard', Packages: ['master-bot'] });
      const res = await server.client.get(`/admin/accounts/${created.AccountId}`, admin);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        ...created,
        AuditDays: 365,
        Usage: { Month: currentMonth(), Messages: 0, Replies: 0, Notifications: 0, ApiCalls: 0, AiTokens: 0 },
      });
    });

    test('PATCH /admin/accounts/{id} changes the fields given and answers 200 with the account (without its key)', async () => {
      const { AccountAPIKey: _key, ...created } = await createAccount({ Name: 'Before', Plan: 'standard' });
      const renamed = await server.client.patch(`/admin/accounts/${created.AccountId}`, { Name: 'After' }, admin);
      assert.equal(renamed.status, 200);
      assert.deepEqual(renamed.body, { ...created, Name: 'After' });
      const replanned = await server.client.patch(`/admin/accounts/${created.AccountId}`, { Plan: 'free', Packages: ['master-bot'] }, admin);
      assert.equal(replanned.status, 200);
      assert.deepEqual(replanned.body, { ...created, Name: 'After', Plan: 'free', Packages: ['master-bot'] });
      const emptied = await server.client.patch(`/admin/accounts/${created.AccountId}`, { Packages: [] }, admin);
      assert.deepEqual(emptied.body.Packages, []);
      const nothing = await server.client.patch(`/admin/accounts/${created.AccountId}`, {}, admin);
      assert.equal(nothing.status, 200);
      assert.deepEqual(nothing.body, { ...created, Name: 'After', Plan: 'free', Packages: [] });
      const read = await server.client.get(`/admin/accounts/${created.AccountId}`, admin);
      const { Usage: _usage, AuditDays: _auditDays, ...account } = read.body;
      assert.deepEqual(account, nothing.body);
    });

    test('the plan change takes effect on the token endpoint', async () => {
      const created = await createAccount({ Name: 'Plan', Plan: 'free' });
      const refused = await server.client.post('/authorization/integration', { AccountAPIKey: created.AccountAPIKey });
      assert.equal(refused.body.Code, 'PLAN_FORBIDDEN');
      await server.client.patch(`/admin/accounts/${created.AccountId}`, { Plan: 'standard' }, admin);
      const granted = await server.client.post('/authorization/integration', { AccountAPIKey: created.AccountAPIKey });
      assert.equal(granted.status, 200);
    });

    test('404 ACCOUNT_NOT_FOUND for an unknown account id on GET, PATCH and operators', async () => {
      const calls = [
        server.client.get(`/admin/accounts/${UNKNOWN_ID}`, admin),
        server.client.patch(`/admin/accounts/${UNKNOWN_ID}`, { Name: 'x' }, admin),
        server.client.post(`/admin/accounts/${UNKNOWN_ID}/operators`, { Email: 'a@example.org', Name: 'A', Password: 'password-1' }, admin),
      ];
      for (const res of await Promise.all(calls)) {
        assert.equal(res.status, 404);
        assert.equal(res.body.Code, 'ACCOUNT_NOT_FOUND');
      }
    });

    test('400 INVALID_REQUEST for a bad plan, bad packages or a missing name, and nothing is created or changed', async () => {
      const before = await createAccount({ Name: 'Stable', Plan: 'standard' });
      await expectInvalid(server.client.post('/admin/accounts', { Name: 'x', Plan: 'gold' }, admin), 'body.Plan');
      await expectInvalid(server.client.post('/admin/accounts', { Name: 'x', Plan: 'standard', Packages: ['tea'] }, admin), 'body.Packages.0');
      await expectInvalid(server.client.post('/admin/accounts', { Plan: 'standard' }, admin), 'body.Name');
      await expectInvalid(server.client.post('/admin/accounts', { Name: '', Plan: 'standard' }, admin), 'body.Name');
      await expectInvalid(server.client.post('/admin/accounts', { Name: 'x' }, admin), 'body.Plan');
      // an unknown member is ignored (api.md Conventions): the answer is about the bad Plan
      await expectInvalid(server.client.post('/admin/accounts', { Name: 'x', Plan: 'gold', Owner: 'me' }, admin), 'body.Plan');
      await expectInvalid(server.client.patch(`/admin/accounts/${before.AccountId}`, { Name: 'Changed', Plan: 'platinum' }, admin), 'body.Plan');
      const read = await server.client.get(`/admin/accounts/${before.AccountId}`, admin);
      assert.equal(read.body.Name, 'Stable', 'a rejected PATCH changes nothing');
      assert.equal(read.body.Plan, 'standard');
    });

    test('POST operators → 201 exactly {OperatorId, Email, Name, Role}; the password is not returned', async () => {
      const account = await createAccount({ Name: 'Ops', Plan: 'standard' });
      const password = 'correct horse battery';
      const res = await server.client.post(`/admin/accounts/${account.AccountId}/operators`, { Email: 'ann@example.org', Name: 'Ann', Password: password }, admin);
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body).sort(), ['Email', 'Name', 'OperatorId', 'Role']);
      assert.equal(res.body.Role, 'agent', 'the default role (designer.md)');
      assert.equal(res.body.Email, 'ann@example.org');
      assert.equal(res.body.Name, 'Ann');
      assert.match(res.body.OperatorId, /^\S{8,}$/);
      assert.ok(!res.text.includes(password), 'the password is not in the reply');
      assert.ok(!/password|hash|scrypt/i.test(res.text), 'nothing derived from the password is in the reply');
      const second = await server.client.post(`/admin/accounts/${account.AccountId}/operators`, { Email: 'bob@example.org', Name: 'Bob', Password: password }, admin);
      assert.equal(second.status, 201);
      assert.notEqual(second.body.OperatorId, res.body.OperatorId);
      const read = await server.client.get(`/admin/accounts/${account.AccountId}`, admin);
      assert.ok(!read.text.includes(password));
    });

    test('409 CONFLICT for a second operator with the same e-mail (any case) in the account', async () => {
      const account = await createAccount({ Name: 'Dup', Plan: 'standard' });
      const path = `/admin/accounts/${account.AccountId}/operators`;
      const first = await server.client.post(path, { Email: 'carl@example.org', Name: 'Carl', Password: 'password-1' }, admin);
      assert.equal(first.status, 201);
      for (const email of ['carl@example.org', 'Carl@Example.org']) {
        const res = await server.client.post(path, { Email: email, Name: 'Carl 2', Password: 'password-2' }, admin);
        assert.equal(res.status, 409, email);
        assert.equal(res.body.Code, 'CONFLICT');
        assert.equal(typeof res.body.Message, 'string');
      }
    });

    test('400 INVALID_REQUEST for a malformed e-mail, a short password a missing field or an unknown role', async () => {
      const account = await createAccount({ Name: 'Bad ops', Plan: 'standard' });
      const path = `/admin/accounts/${account.AccountId}/operators`;
      await expectInvalid(server.client.post(path, { Email: 'not-an-email', Name: 'A', Password: 'password-1' }, admin), 'body.Email');
      await expectInvalid(server.client.post(path, { Email: 'a@example.org', Name: 'A', Password: 'short' }, admin), 'body.Password');
      await expectInvalid(server.client.post(path, { Email: 'a@example.org', Name: 'A' }, admin), 'body.Password');
      await expectInvalid(server.client.post(path, { Email: 'a@example.org', Password: 'password-1', Role: 'owner' }, admin), 'body.Role'); // Name may be left out (designer.md), Role must be one of the three
      await expectInvalid(server.client.post(path, { Name: 'A', Password: 'password-1' }, admin), 'body.Email');
      // none of them was created: the e-mail is still free
      const ok = await server.client.post(path, { Email: 'a@example.org', Name: 'A', Password: 'password-1' }, admin);
      assert.equal(ok.status, 201);
    });
  });
}
