// Issue 37 item 5: an admin adds teammates from the console. An invitation is a one-time link the
// admin sends; the invited person chooses a password there and signs in; roles change; teammates
// are removed; the account always keeps an admin who can sign in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`console team: invite, join, roles, remove (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    let admin: ReturnType<typeof consoleClient>;
    let adminId: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      other = await createTenant(server.client);
      adminId = (await addOperator(server.client, tenant.accountId, 'boss@example.org', undefined, 'Boss', 'admin')).OperatorId;
      await addOperator(server.client, other.accountId, 'zed@example.org', undefined, 'Zed', 'admin');
      admin = consoleClient(server.client, await signIn(server.client, 'boss@example.org'));
    });
    after(() => server.close());

    const cookie = (c: ReturnType<typeof consoleClient>) => ({ headers: { cookie: c.cookie } });
    const tokenOf = (url: string) => new URL(url).hash.replace('#invite=', '');
    const login = (email: string, password: string) => server.client.post('/console/api/login', { Email: email, Password: password });

    test('an invited teammate joins through the link once, then signs in with the role given', async () => {
      const invite = await admin.post('/team', { Email: 'Ann@Example.org', Name: 'Ann', Role: 'agent' });
      assert.equal(invite.status, 201, invite.text);
      assert.deepEqual({ ...invite.body.Teammate, OperatorId: undefined }, { OperatorId: undefined, Email: 'ann@example.org', Name: 'Ann', Role: 'agent', Invited: true });
      assert.match(invite.body.InviteUrl, new RegExp(`^${server.url}/console/team#invite=[A-Za-z0-9_-]{43}$`));
      assert.equal(invite.body.ExpiresInDays, 7);
      assert.equal((await login('ann@example.org', 'invited')).status, 401, 'no password works before joining');
      const token = tokenOf(invite.body.InviteUrl);
      const joined = await server.client.post('/console/api/team/join', { Token: token, Password: 'a brand new secret' });
      assert.equal(joined.status, 200, joined.text);
      assert.deepEqual(joined.body, { Email: 'ann@example.org' });
      const again = await server.client.post('/console/api/team/join', { Token: token, Password: 'another secret!' });
      assert.equal(again.status, 400);
      assert.equal(again.body.Code, 'INVITE_INVALID');
      const ann = consoleClient(server.client, await signIn(server.client, 'ann@example.org', 'a brand new secret'));
      const team = await ann.get('/team');
      assert.equal(team.status, 200, team.text);
      assert.deepEqual(team.body.Teammates.map((t: any) => [t.Email, t.Role, t.Invited]), [['ann@example.org', 'agent', false], ['boss@example.org', 'admin', false]]);
      const refused = await ann.post('/team', { Email: 'x@example.org', Role: 'admin' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.Code, 'ROLE_FORBIDDEN');
    });

    test('roles change, a new link replaces the old, teammates are removed; the last admin stays', async () => {
      const invite = (await admin.post('/team', { Email: 'dee@example.org', Role: 'designer' })).body;
      const id = invite.Teammate.OperatorId;
      const fresh = await admin.post(`/team/${id}/invite`);
      assert.equal(fresh.status, 200, fresh.text);
      const old = await server.client.post('/console/api/team/join', { Token: tokenOf(invite.InviteUrl), Password: 'a brand new secret' });
      assert.equal(old.body.Code, 'INVITE_INVALID', 'the old link stopped working');
      const promoted = await server.client.patch(`/console/api/team/${id}`, { Role: 'admin' }, cookie(admin));
      assert.equal(promoted.status, 200, promoted.text);
      assert.equal(promoted.body.Role, 'admin');
      const demoteMe = await server.client.patch(`/console/api/team/${adminId}`, { Role: 'agent' }, cookie(admin));
      assert.equal(demoteMe.status, 409, 'Dee has not joined: she cannot sign in, so Boss is the last admin who can');
      assert.equal(demoteMe.body.Code, 'CONFLICT');
      const self = await server.client.delete(`/console/api/team/${adminId}`, cookie(admin));
      assert.equal(self.status, 409);
      const removed = await server.client.delete(`/console/api/team/${id}`, cookie(admin));
      assert.deepEqual([removed.status, removed.body], [200, { OperatorId: id, Removed: true }]);
      const joinRemoved = await server.client.post('/console/api/team/join', { Token: tokenOf(fresh.body.InviteUrl), Password: 'a brand new secret' });
      assert.equal(joinRemoved.body.Code, 'INVITE_INVALID', 'a removed teammate’s link is gone with them');
      assert.equal((await admin.get('/team')).body.Teammates.some((t: any) => t.Email === 'dee@example.org'), false);
    });

    test('bad input and another account’s operators are refused with a Code and change nothing', async () => {
      const before = (await admin.get('/team')).body.Teammates;
      for (const body of [{}, { Email: 'not an address', Role: 'agent' }, { Email: 'a@example.org', Role: 'owner' }, { Email: 'boss@example.org', Role: 'agent' }]) {
        const res = await admin.post('/team', body);
        assert.ok([400, 409].includes(res.status), `${JSON.stringify(body)} → ${res.status}`);
        assert.equal(typeof res.body.Code, 'string');
      }
      const zed = (await server.running.store.operators.byEmail(other.accountId, 'zed@example.org'))!;
      for (const res of [
        await server.client.patch(`/console/api/team/${zed.id}`, { Role: 'agent' }, cookie(admin)),
        await server.client.delete(`/console/api/team/${zed.id}`, cookie(admin)),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.Code, 'OPERATOR_NOT_FOUND');
      }
      for (const body of [{ Token: 'x'.repeat(43), Password: 'long enough pw' }, { Token: 'short', Password: 'long enough pw' }, { Token: 'x'.repeat(43), Password: 'short' }]) {
        const res = await server.client.post('/console/api/team/join', body);
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      assert.deepEqual((await admin.get('/team')).body.Teammates, before);
      assert.equal((await server.running.store.operators.byId(zed.id))!.role, 'admin');
    });
  });
}
