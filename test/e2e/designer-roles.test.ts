// Issue 23, roles (designer.md "Who"): every console route × every role → the exact status. An
// agent has conversations only, a designer bots and analytics but no conversations, an admin
// everything; the server refuses the rest with 403 ROLE_FORBIDDEN whatever the page shows. The
// table must name every cookie route the server registers, so a new console route fails here
// until its role is decided. Allowed requests that carry a body send malformed JSON: the role is
// checked before the body is read, so an allowed one answers 400 INVALID_JSON and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { carriesBody, consoleApiRoutes, label, type RouteInfo } from '../support/routes.js';

type Role = 'agent' | 'designer' | 'admin';
const ROLES: Role[] = ['agent', 'designer', 'admin'];
type Area = 'conversations' | 'design' | 'account' | 'any';
const OPENS: Record<Role, Area[]> = { agent: ['any', 'conversations'], designer: ['any', 'design'], admin: ['any', 'conversations', 'design', 'account'] };

const one = '/console/api/conversations/{botId}/{userId}';
/** Every cookie route: its area, and what an allowed operator gets back. */
const TABLE: Record<string, { area: Area; allowed: number; code?: string }> = {
  'GET /console/api/me': { area: 'any', allowed: 200 },
  'GET /console/api/conversations': { area: 'conversations', allowed: 200 },
  [`GET ${one}`]: { area: 'conversations', allowed: 200 },
  [`POST ${one}/takeover`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/handover`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/ban`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/unban`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/forget`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/messages`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/assign`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/unassign`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/notes`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/typing`]: { area: 'conversations', allowed: 400 },
  [`GET ${one}/visitor`]: { area: 'conversations', allowed: 200 },
  [`POST ${one}/resolve`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/reopen`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/snooze`]: { area: 'conversations', allowed: 400 },
  [`POST ${one}/transfer`]: { area: 'conversations', allowed: 400 },
  'GET /console/api/search': { area: 'conversations', allowed: 200 },
  'GET /console/api/teams': { area: 'conversations', allowed: 200 },
  // teams decide who gets which conversations: every agent reads them, only an admin changes them
  'POST /console/api/teams': { area: 'account', allowed: 400 },
  'PUT /console/api/teams/{teamId}/members': { area: 'account', allowed: 400 },
  'DELETE /console/api/teams/{teamId}': { area: 'account', allowed: 400 },
  // broadcasts are the designer's, as analytics (broadcasts.md)
  'GET /console/api/bots/{botId}/broadcasts': { area: 'design', allowed: 200 },
  'POST /console/api/bots/{botId}/broadcasts': { area: 'design', allowed: 400 },
  'POST /console/api/bots/{botId}/broadcasts/preview': { area: 'design', allowed: 400 },
  'POST /console/api/bots/{botId}/broadcasts/{BroadcastId}/cancel': { area: 'design', allowed: 400 },
  'GET /console/api/bots/{botId}/broadcasts/{BroadcastId}': { area: 'design', allowed: 404, code: 'BROADCAST_NOT_FOUND' },
  'GET /console/api/bots/{botId}/broadcast-channels': { area: 'design', allowed: 200 },
  'GET /console/api/me/avatar': { area: 'any', allowed: 200 },
  'PUT /console/api/me/avatar': { area: 'any', allowed: 400 },
  'GET /console/api/events': { area: 'conversations', allowed: 200 },
  'GET /console/api/canned': { area: 'conversations', allowed: 200 },
  'POST /console/api/canned': { area: 'conversations', allowed: 400 },
  'PUT /console/api/canned/{cannedId}': { area: 'conversations', allowed: 400 },
  'DELETE /console/api/canned/{cannedId}': { area: 'conversations', allowed: 400 },
  'GET /console/api/bots': { area: 'design', allowed: 200 },
  'GET /console/api/bots/{botId}/analytics': { area: 'design', allowed: 200 },
  'GET /console/api/bots/{botId}/flow': { area: 'design', allowed: 200 },
  'GET /console/api/bots/{botId}/analytics.csv': { area: 'design', allowed: 200 },
  'GET /console/api/bots/{botId}/transcripts.csv': { area: 'conversations', allowed: 200 },
  // agents.md: traces are conversation data; u-roles had no agent turn, so its list is empty
  'GET /console/api/bots/{botId}/conversations/{userId}/trace': { area: 'conversations', allowed: 200 },
  // agents.md: approvals are conversation data too; allowed decisions read the (malformed) body first
  'GET /console/api/bots/{botId}/approvals': { area: 'conversations', allowed: 200 },
  'POST /console/api/bots/{botId}/approvals/{ApprovalId}/approve': { area: 'conversations', allowed: 400 },
  'POST /console/api/bots/{botId}/approvals/{ApprovalId}/reject': { area: 'conversations', allowed: 400 },
  'GET /console/api/bots/{botId}/draft': { area: 'design', allowed: 200 },
  'PUT /console/api/bots/{botId}/draft': { area: 'design', allowed: 400 },
  'GET /console/api/bots/{botId}/draft/problems': { area: 'design', allowed: 200 },
  'POST /console/api/bots/{botId}/publish': { area: 'design', allowed: 400 },
  'GET /console/api/bots/{botId}/versions': { area: 'design', allowed: 200 },
  'GET /console/api/bots/{botId}/versions/{Version}': { area: 'design', allowed: 200 },
  'POST /console/api/bots/{botId}/rollback': { area: 'design', allowed: 400 },
  'GET /console/api/bots/{botId}/diff': { area: 'design', allowed: 200 },
  'POST /console/api/bots/{botId}/preview/chat': { area: 'design', allowed: 400 },
  // knowledge is the designer's (designer.md "Who"): an agent may not even read it
  'GET /console/api/bots/{botId}/knowledge': { area: 'design', allowed: 200 },
  'POST /console/api/bots/{botId}/knowledge': { area: 'design', allowed: 400 },
  'GET /console/api/bots/{botId}/knowledge/{SourceId}': { area: 'design', allowed: 404, code: 'SOURCE_NOT_FOUND' },
  'PUT /console/api/bots/{botId}/knowledge/{SourceId}': { area: 'design', allowed: 400 },
  'DELETE /console/api/bots/{botId}/knowledge/{SourceId}': { area: 'design', allowed: 400 },
  'POST /console/api/bots/{botId}/knowledge/search': { area: 'design', allowed: 400 },
  'POST /console/api/bots/{botId}/knowledge/ask': { area: 'design', allowed: 400 },
  // making bots and putting them on a website (issue 37) are the designer's
  'GET /console/api/bot-templates': { area: 'design', allowed: 200 },
  'POST /console/api/bots': { area: 'design', allowed: 400 },
  // importing makes a bot: whoever may make one (importers.md, issue 40)
  'POST /console/api/bots/import': { area: 'design', allowed: 400 },
  'POST /console/api/bots/import/preview': { area: 'design', allowed: 400 },
  'POST /console/api/bots/{botId}/duplicate': { area: 'design', allowed: 400 },
  'PATCH /console/api/bots/{botId}': { area: 'design', allowed: 400 },
  'DELETE /console/api/bots/{botId}': { area: 'design', allowed: 400 },
  'GET /console/api/bots/{botId}/install': { area: 'design', allowed: 200 },
  // connecting a channel puts the bot on a platform, as publishing does (issue 41)
  'GET /console/api/bots/{botId}/channels': { area: 'design', allowed: 200 },
  'PUT /console/api/bots/{botId}/channels/{Channel}': { area: 'design', allowed: 400 },
  'DELETE /console/api/bots/{botId}/channels/{Channel}': { area: 'design', allowed: 400 },
  // everyone sees the team; only an admin changes it (issue 37)
  'GET /console/api/team': { area: 'any', allowed: 200 },
  'POST /console/api/team': { area: 'account', allowed: 400 },
  'POST /console/api/team/{operatorId}/invite': { area: 'account', allowed: 400 },
  'PATCH /console/api/team/{operatorId}': { area: 'account', allowed: 400 },
  'DELETE /console/api/team/{operatorId}': { area: 'account', allowed: 400 },
  // governance (issue 42): the audit log and a contact's personal-data export are the admins'
  'GET /console/api/audit': { area: 'account', allowed: 200 },
  'GET /console/api/audit.csv': { area: 'account', allowed: 200 },
  [`GET ${one}/export`]: { area: 'account', allowed: 200 },
};
/** Signing in and out, and joining through an invitation link, need no session. */
const OPEN = new Set(['POST /console/api/login', 'POST /console/api/logout', 'POST /console/api/team/join']);

for (const kind of databaseKinds()) {
  describe(`console roles (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let routes: RouteInfo[];
    const cookies = {} as Record<Role, string>;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      const botId = await botIdOf(server, tenant.botKey);
      assert.equal((await server.client.post('/custom/chat', { UserId: 'u-roles' }, { token: tenant.botToken })).status, 200);
      for (const role of ROLES) {
        await addOperator(server.client, tenant.accountId, `${role}@example.org`, undefined, `The ${role}`, role);
        cookies[role] = await signIn(server.client, `${role}@example.org`);
      }
      const canned = await consoleClient(server.client, cookies.agent).post('/canned', { Shortcut: 'hi', Text: 'Hello!' });
      assert.equal(canned.status, 201, canned.text);
      const context = {
        botKey: tenant.botKey,
        webKey: 'unused',
        accountId: tenant.accountId,
        userId: 'u-roles',
        botId,
        cannedId: String(canned.body.CannedId),
        tokens: { admin: ADMIN_TOKEN, account: tenant.accountToken, bot: tenant.botToken },
      };
      routes = consoleApiRoutes(server.running.app, context).map((route) => ({
        ...route,
        path: route.path.replace('hostile-param', '1') + (route.template.endsWith('/diff') ? '?from=1&to=draft' : route.template.endsWith('/search') ? '?q=hello' : ''),
      }));
    });
    after(() => server.close());

    test('the table names every cookie route of the server', () => {
      const found = routes
        .map(label)
        .filter((name) => !OPEN.has(name))
        .sort();
      assert.deepEqual(found, Object.keys(TABLE).sort());
    });

    for (const role of ROLES) {
      test(`${role}: every console route answers as the role decides`, async () => {
        const seen: string[] = [];
        const expected: string[] = [];
        for (const route of routes.filter((r) => !OPEN.has(label(r)))) {
          const row = TABLE[label(route)]!;
          const allowed = OPENS[role].includes(row.area);
          const { status, code } = await call(server, route, cookies[role]);
          seen.push(`${label(route)} → ${status} ${code}`);
          expected.push(`${label(route)} → ${allowed ? row.allowed : 403} ${allowed ? (row.code ?? (row.allowed === 400 ? 'INVALID_JSON' : '-')) : 'ROLE_FORBIDDEN'}`);
        }
        assert.deepEqual(seen, expected);
      });
    }

    test('me tells the page the role; the admin API changes it and the next request obeys', async () => {
      const me = await consoleClient(server.client, cookies.designer).get('/me');
      assert.equal(me.status, 200);
      assert.equal(me.body.Role, 'designer');
      const list = () => consoleClient(server.client, cookies.designer).get('/conversations');
      assert.equal((await list()).status, 403);
      const operatorId = me.body.OperatorId;
      const changed = await server.client.patch(`/admin/accounts/${tenant.accountId}/operators/${operatorId}`, { Role: 'admin' }, { token: ADMIN_TOKEN });
      assert.equal(changed.status, 200, changed.text);
      assert.deepEqual(changed.body, { OperatorId: operatorId, Email: 'designer@example.org', Name: 'The designer', Role: 'admin' });
      assert.equal((await list()).status, 200, 'the same session, now an admin');
      const back = await server.client.patch(`/admin/accounts/${tenant.accountId}/operators/${operatorId}`, { Role: 'designer' }, { token: ADMIN_TOKEN });
      assert.equal(back.status, 200);
      assert.equal((await list()).status, 403);
    });

    test('a new operator is an agent unless told; a bad role or an unknown operator is refused', async () => {
      const plain = await server.client.post(`/admin/accounts/${tenant.accountId}/operators`, { Email: 'plain@example.org', Password: 'long enough pw' }, { token: ADMIN_TOKEN });
      assert.equal(plain.status, 201, plain.text);
      assert.deepEqual({ ...plain.body, OperatorId: undefined }, { OperatorId: undefined, Email: 'plain@example.org', Name: 'plain@example.org', Role: 'agent' });
      const bad = await server.client.post(`/admin/accounts/${tenant.accountId}/operators`, { Email: 'bad@example.org', Password: 'long enough pw', Role: 'owner' }, { token: ADMIN_TOKEN });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Code, 'INVALID_REQUEST');
      const unknown = await server.client.patch(`/admin/accounts/${tenant.accountId}/operators/nobody`, { Role: 'admin' }, { token: ADMIN_TOKEN });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'OPERATOR_NOT_FOUND');
      const badRole = await server.client.patch(`/admin/accounts/${tenant.accountId}/operators/${plain.body.OperatorId}`, { Role: 'root' }, { token: ADMIN_TOKEN });
      assert.equal(badRole.status, 400);
      const other = await createTenant(server.client);
      const elsewhere = await server.client.patch(`/admin/accounts/${other.accountId}/operators/${plain.body.OperatorId}`, { Role: 'admin' }, { token: ADMIN_TOKEN });
      assert.equal(elsewhere.status, 404, "another account's operator is not found");
      const still = await signIn(server.client, 'plain@example.org', 'long enough pw');
      assert.equal((await consoleClient(server.client, still).get('/me')).body.Role, 'agent');
    });
  });
}

/** One request as the operator holding `cookie`: its status and Code ('-' without one). */
async function call(server: TestServer, route: RouteInfo, cookie: string): Promise<{ status: number; code: string }> {
  if (route.template === '/console/api/events') {
    // a stream: its status is known once it opens
    const abort = new AbortController();
    const res = await fetch(`${server.url}${route.path}`, { headers: { cookie, accept: 'text/event-stream' }, signal: abort.signal });
    const code = res.status === 200 ? '-' : ((await res.json()) as { Code: string }).Code;
    abort.abort();
    return { status: res.status, code };
  }
  const res = carriesBody(route)
    ? await server.client.call(route.method, route.path, undefined, { headers: { cookie }, raw: '{"probe":' })
    : await server.client.call(route.method, route.path, undefined, { headers: { cookie } });
  return { status: res.status, code: res.status >= 400 ? res.body.Code : '-' };
}
