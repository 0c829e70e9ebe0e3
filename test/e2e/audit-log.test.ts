// governance.md "Audit log": every state-changing route declares what it records (or why it records
// nothing, the spec's exceptions), walked over every route the server registers; what is recorded
// for sign-ins (successful and failed), console actions and API calls, with who, what and on what;
// GET /account/audit's filters, cursor and bounds, the CSV with the one CSV rule; Details without a
// secret, password, token or message text; and a log no route and no UPDATE can change.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUDITED_ROUTES } from '../../src/http/audit-routes.js';
import { isStateChanging } from '../../src/http/audit.js';
import { userRef } from '../../src/audit/details.js';
import { chatOk } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, login, openRaw, signIn } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServerOn, type TestServer } from '../support/server.js';

const PASSWORD = 'correct horse battery';
const AI_KEY = 'sk-audit-secret-0f3c9a';
const USER_TEXT = 'my card number is 4111-audit-text';

for (const kind of databaseKinds()) {
  describe(`audit log (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let botId: string;
    const audit = (query = '', token = tenant.accountToken) => server.client.get(`/account/audit${query}`, { token });

    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database);
      tenant = await createTenant(server.client);
      botId = await botIdOf(server, tenant.botKey);
      await addOperator(server.client, tenant.accountId, 'admin@shop.example');
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    test('every state-changing route declares an audit action or the exception it is, and every declaration names a route', () => {
      const routes = server.running.app.auditedRoutes;
      const undeclared = routes.filter((r) => isStateChanging(r.method) && !r.audit).map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(undeclared, [], 'add these to src/http/audit-routes.ts (an action, or why they record nothing)');
      const registered = new Set(routes.map((r) => `${r.method} ${r.url}`));
      assert.deepEqual(
        Object.keys(AUDITED_ROUTES).filter((key) => !registered.has(key)),
        [],
        'declarations for routes that do not exist',
      );
      // the spec's exceptions are declared as such, not recorded
      for (const turn of ['POST /custom/chat', 'POST /apihook/chat', 'POST /channels/:Channel/:ChannelId', 'POST /web/:key/messages']) {
        assert.deepEqual(AUDITED_ROUTES[turn], { exempt: 'turn' }, turn);
      }
    });

    test('password sign-ins, successful and failed, are recorded with the method; the password is not', async () => {
      assert.equal((await login(server.client, { Email: 'admin@shop.example', Password: 'wrong password 123' })).status, 401);
      await signIn(server.client, 'admin@shop.example', PASSWORD);
      const res = await audit('?action=signin.failed');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.Result.length, 1);
      const failed = res.body.Result[0];
      assert.equal(failed.Actor, 'admin@shop.example');
      assert.equal(failed.ActorKind, 'operator');
      assert.equal(failed.Target, 'operator:admin@shop.example');
      assert.equal(failed.Ip, '127.0.0.1');
      assert.equal(failed.Details.Method, 'password');
      assert.equal(failed.Details.Outcome, 'failure');
      const ok = (await audit('?action=signin')).body.Result;
      assert.equal(ok.length, 1);
      assert.deepEqual(ok[0].Details, { Method: 'password', Outcome: 'success' });
      assert.match(ok[0].At, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    });

    test('console actions and API calls are recorded with who, what and on what; turns are not; nothing secret is kept', async () => {
      await chatOk(server, tenant.botToken, { UserId: 'ann', Text: USER_TEXT });
      const admin = consoleClient(server.client, await signIn(server.client, 'admin@shop.example', PASSWORD));
      const path = admin.conversationPath(botId, 'ann');
      assert.equal((await admin.post(`${path}/takeover`)).status, 200);
      assert.equal((await admin.post(`${path}/handover`, { Mode: '*' })).status, 200);
      const put = await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: 'http://127.0.0.1:9/v1', Model: 'audit-model', ApiKey: AI_KEY }, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
      assert.equal((await server.client.post('/custom/state', { UserId: 'ann', State: 'ban', Days: 1 }, { token: tenant.botToken })).status, 200);

      const entries = (await audit()).body.Result as any[];
      const actions = entries.map((e) => e.Action);
      // newest first; the chat turn and the token exchanges are not there
      assert.deepEqual(actions.slice(0, 4), ['conversation.ban', 'ai.set', 'conversation.handover', 'conversation.takeover']);
      const [ban, ai, handover, takeover] = entries;
      assert.deepEqual([takeover.Actor, takeover.ActorKind, takeover.Target], ['admin@shop.example', 'operator', `bot:${botId}/user:${userRef(botId, 'ann')}`]);
      assert.deepEqual(handover.Details, { Method: 'POST', Route: '/console/api/conversations/:botId/:userId/handover', Status: 200, Mode: '*' });
      assert.deepEqual([ai.Actor, ai.ActorKind, ai.Target], [`account:${tenant.accountId}`, 'account-token', `bot:${botId}`]);
      assert.deepEqual(ai.Details.Fields, ['BaseUrl', 'Model', 'ApiKey'], 'the names of the settings, never their values');
      assert.equal(ai.Details.Model, 'audit-model');
      assert.deepEqual([ban.ActorKind, ban.Target, ban.Details.days], ['bot-token', `bot:${botId}/user:${userRef(botId, 'ann')}`, 1]);
      assert.ok(!actions.some((a) => a.startsWith('POST ')), 'every recorded route has a declared action');

      // nothing secret anywhere in the stored rows: not the password, the AI key, a token, the user's text, the API key or the user id
      const raw = await openRaw(database);
      try {
        const stored = JSON.stringify(await raw.all('SELECT * FROM audit_log'));
        for (const secret of [PASSWORD, 'wrong password 123', AI_KEY, USER_TEXT, tenant.accountToken, tenant.botToken, tenant.botKey, tenant.botSecret, tenant.accountKey, 'user:ann']) {
          assert.ok(!stored.includes(secret), `the audit log holds ${secret}`);
        }
      } finally {
        await raw.close();
      }
    });

    test('an invited teammate joining is recorded as that teammate, in the account, without the password or the link', async () => {
      const admin = consoleClient(server.client, await signIn(server.client, 'admin@shop.example', PASSWORD));
      const invited = await admin.post('/team', { Email: 'new@shop.example', Role: 'agent' });
      assert.equal(invited.status, 201, invited.text);
      const token = new URL(invited.body.InviteUrl, server.url).hash.replace('#invite=', '');
      assert.equal((await server.client.post('/console/api/team/join', { Token: token, Password: 'joining secret 42' })).status, 200);
      const [joined] = (await audit('?action=operator.join')).body.Result;
      assert.deepEqual([joined.Actor, joined.ActorKind, joined.Target], ['new@shop.example', 'operator', 'operator:new@shop.example']);
      const [invite] = (await audit('?action=operator.invite')).body.Result;
      assert.deepEqual([invite.Actor, invite.Details.Email, invite.Details.Role], ['admin@shop.example', 'new@shop.example', 'agent']);
      const raw = await openRaw(database);
      try {
        const stored = JSON.stringify(await raw.all('SELECT * FROM audit_log'));
        assert.ok(!stored.includes('joining secret 42') && !stored.includes(token));
      } finally {
        await raw.close();
      }
    });

    test('filters, the cursor and the bounds of GET /account/audit', async () => {
      const all = (await audit('?limit=500')).body;
      assert.equal(all.Next, null);
      const total = all.Result.length;
      assert.ok(total >= 6, `${total} entries`);
      // pages of 2 through the cursor give the same entries in the same order
      const seen: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const res = await audit(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.status, 200, res.text);
        assert.ok(res.body.Result.length <= 2);
        seen.push(...res.body.Result.map((e: any) => `${e.At} ${e.Action}`));
        cursor = res.body.Next;
      }
      assert.deepEqual(
        seen,
        all.Result.map((e: any) => `${e.At} ${e.Action}`),
      );
      const byActor = (await audit('?actor=admin%40shop.example')).body.Result;
      assert.ok(byActor.length >= 4 && byActor.every((e: any) => e.Actor === 'admin@shop.example'));
      assert.deepEqual((await audit('?to=2000-01-01')).body.Result, []);
      assert.equal((await audit('?from=2000-01-01T00:00:00Z')).body.Result.length, Math.min(total, 100));
      for (const [query, field] of [
        ['?limit=501', 'limit'],
        ['?limit=0', 'limit'],
        ['?from=yesterday', 'from'],
        ['?cursor=-1', 'cursor'],
      ]) {
        const res = await audit(query);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
        assert.equal(res.body.Field, field);
      }
      // another account sees none of it; a bot token may not read it
      const other = await createTenant(server.client);
      assert.deepEqual(
        (await audit('', other.accountToken)).body.Result.map((e: any) => e.Action),
        ['bot.create', 'account.create'],
        'its own creation only',
      );
      assert.equal((await audit('', tenant.botToken)).status, 403);
    });

    test('the CSV: the same entries, every text quoted, formula-looking cells defused', async () => {
      assert.equal((await login(server.client, { Email: '=HYPERLINK("x")', Password: 'nope' })).status, 401);
      await addOperator(server.client, tenant.accountId, '-2+3@shop.example');
      assert.equal((await login(server.client, { Email: '-2+3@shop.example', Password: 'nope' })).status, 401);
      const res = await server.client.get('/account/audit.csv?action=signin.failed', { token: tenant.accountToken });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      const lines = res.text.split('\r\n');
      assert.equal(lines[0], '"At","Actor","ActorKind","Action","Target","Ip","Details"');
      assert.match(
        lines[1],
        /^"[^"]+","'-2\+3@shop\.example","operator","signin\.failed","operator:-2\+3@shop\.example","127\.0\.0\.1","\{""Method"":""password"",""Outcome"":""failure"",""Reason"":""HTTP 401""\}"$/,
      );
      assert.equal(lines.length, 4, 'two failed sign-ins of this account, and the final CRLF');
      // the unknown e-mail's attempt is kept under no account: not in this one
      assert.ok(!res.text.includes('HYPERLINK'));
    });

    test("entries older than the account's AuditDays go (set by the admin), others stay", async () => {
      const raw = await openRaw(database);
      const old = Date.now() - 2 * 86_400_000;
      try {
        await raw.all("INSERT INTO audit_log (account_id, at, actor, actor_kind, action, target, ip, details) VALUES ($1, $2, 'admin', 'admin', 'old.one', '', '', '{}') RETURNING id", [
          tenant.accountId,
          old,
        ]);
      } finally {
        await raw.close();
      }
      await server.running.maintenance.runOnce();
      assert.equal((await audit('?action=old.one')).body.Result.length, 1, 'two days old, kept for 365');
      const patched = await server.client.patch(`/admin/accounts/${tenant.accountId}`, { AuditDays: 1 }, { token: ADMIN_TOKEN });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await server.client.patch(`/admin/accounts/${tenant.accountId}`, { AuditDays: 0 }, { token: ADMIN_TOKEN })).status, 400);
      const shown = await server.client.get(`/admin/accounts/${tenant.accountId}`, { token: ADMIN_TOKEN });
      assert.equal(shown.status, 200);
      assert.equal(shown.body.AuditDays, 1, 'the admin reads back what was set (the refused 0 changed nothing)');
      await server.running.maintenance.runOnce();
      assert.deepEqual((await audit('?action=old.one')).body.Result, [], 'older than one day: gone');
      assert.equal((await audit('?action=account.update')).body.Result[0].Details.AuditDays, 1, 'newer entries stay');
    });

    test('append-only: an UPDATE is refused by the database itself', async () => {
      const raw = await openRaw(database);
      try {
        await assert.rejects(raw.all("UPDATE audit_log SET actor = 'someone else' RETURNING id"), /append-only/);
      } finally {
        await raw.close();
      }
    });
  });
}
