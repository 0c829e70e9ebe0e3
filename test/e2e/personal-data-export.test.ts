// governance.md "Personal-data export": GET /bots/{APIKey}/conversations/{UserId}/export (account
// token) and the console's admin twin give one JSON document with everything held about the
// conversation; 404 for an unknown or forgotten one; each export is an audit entry; a long history
// is written page by page and arrives whole.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, eventually, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SECTIONS = [
  'ExportedAt',
  'Bot',
  'UserId',
  'Channel',
  'CreatedAt',
  'UpdatedAt',
  'Control',
  'Variables',
  'Tags',
  'Assignment',
  'Inbox',
  'WebVisitor',
  'ChannelContact',
  'History',
  'Notes',
  'Activity',
  'AnalyticsEvents',
  'MissedTexts',
  'Deliveries',
  'Broadcasts',
  'Shares',
  'AgentTraces',
  'Approvals',
];

for (const kind of databaseKinds()) {
  describe(`personal-data export (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let botId: string;
    let admin: ReturnType<typeof consoleClient>;
    const exported = (userId: string, t: Tenant = tenant) => server.client.get(`/bots/${t.botKey}/conversations/${encodeURIComponent(userId)}/export`, { token: t.accountToken });

    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      botId = await botIdOf(server, tenant.botKey);
      await addOperator(server.client, tenant.accountId, 'admin@shop.example');
      await addOperator(server.client, tenant.accountId, 'agent@shop.example', 'correct horse battery', 'Agent', 'agent');
      admin = consoleClient(server.client, await signIn(server.client, 'admin@shop.example'));
    });
    after(async () => server?.close());

    test('everything held about the conversation, in one document, and an audit entry', async () => {
      await chatOk(server, tenant.botToken, { UserId: 'ann', Text: 'hello' });
      await chatOk(server, tenant.botToken, { UserId: 'ann', Text: 'qwertyuiop zxcvbnm' });
      const path = admin.conversationPath(botId, 'ann');
      assert.equal((await admin.post(`${path}/takeover`)).status, 200);
      assert.equal((await admin.post(`${path}/notes`, { Text: 'prefers e-mail' })).status, 201);
      assert.equal((await admin.post(`${path}/messages`, { Text: 'Hi Ann, Bob here' })).status, 200);
      assert.equal((await server.client.post('/custom/share', { UserId: 'ann', Mode: 'view', Hours: 1 }, { token: tenant.botToken })).status, 200);

      const res = await exported('ann');
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="conversation-\d{4}-\d{2}-\d{2}\.json"$/);
      const doc = res.body;
      assert.deepEqual(Object.keys(doc), SECTIONS);
      assert.deepEqual(doc.Bot, { BotId: botId, Name: 'Support' === doc.Bot.Name ? 'Support' : doc.Bot.Name });
      assert.equal(doc.UserId, 'ann');
      assert.equal(doc.Control.State, 2);
      assert.equal(doc.Control.Operator, 'admin@shop.example');
      const texts = JSON.stringify(doc.History.map((m: any) => m.Parts));
      for (const said of ['hello', 'qwertyuiop zxcvbnm', 'Hi Ann, Bob here']) assert.ok(texts.includes(said), said);
      assert.ok(doc.History.every((m: any) => ['in', 'out', 'operator'].includes(m.Direction) || typeof m.Direction === 'string'));
      assert.deepEqual(
        doc.Notes.map((n: any) => [n.Author, n.Text]),
        [['Ann Operator', 'prefers e-mail']],
      );
      assert.deepEqual(
        doc.AnalyticsEvents.map((e: any) => [e.Kind, e.Value]),
        [['state', 2]],
      );
      assert.equal(doc.Shares.length, 1);
      assert.equal(doc.Shares[0].Mode, 'view');
      assert.ok(!JSON.stringify(doc.Shares).includes('Code'), 'a share link is a credential: not in the export');
      assert.equal(doc.Assignment?.OperatorId !== undefined, true);
      assert.deepEqual(doc.AgentTraces, []);
      assert.deepEqual(doc.Approvals, []);
      assert.deepEqual(doc.Broadcasts, []);
      assert.match(doc.History[0].CreatedAt, /^\d{4}-\d{2}-\d{2}T.*\+00:00$/);

      const entries = (await server.client.get('/account/audit?action=export', { token: tenant.accountToken })).body.Result;
      assert.equal(entries.length, 1);
      assert.equal(entries[0].ActorKind, 'account-token');
      assert.match(entries[0].Target, new RegExp(`^bot:${botId}/user:[0-9a-f]{16}$`));
    });

    test("the console's admin export gives the same document; an agent may not export", async () => {
      const path = admin.conversationPath(botId, 'ann');
      const res = await admin.get(`${path}/export`);
      assert.equal(res.status, 200, res.text);
      const byToken = (await exported('ann')).body;
      assert.deepEqual({ ...res.body, ExportedAt: null }, { ...byToken, ExportedAt: null });
      const agent = consoleClient(server.client, await signIn(server.client, 'agent@shop.example'));
      const refused = await agent.get(`${path}/export`);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.Code, 'ROLE_FORBIDDEN');
      const entries = (await server.client.get('/account/audit?action=export', { token: tenant.accountToken })).body.Result;
      assert.deepEqual(
        entries.map((e: any) => [e.Actor, e.ActorKind]),
        [
          [`account:${tenant.accountId}`, 'account-token'],
          ['admin@shop.example', 'operator'],
          [`account:${tenant.accountId}`, 'account-token'],
        ],
      );
    });

    test('a long history arrives whole, in order', async () => {
      for (let i = 0; i < 300; i++) await chatOk(server, tenant.botToken, { UserId: 'long', Text: `message ${i}` });
      const doc = (await exported('long')).body;
      const said = doc.History.filter((m: any) => JSON.stringify(m.Parts).includes('message ')).map((m: any) => m.Parts[0].Text);
      assert.equal(said.length, 300);
      assert.equal(said[0], 'message 0');
      assert.equal(said[299], 'message 299');
    });

    test("404 for an unknown or a forgotten conversation, 403 for another account's bot", async () => {
      assert.equal((await exported('nobody')).status, 404);
      assert.equal((await exported('nobody')).body.Code, 'CONVERSATION_NOT_FOUND');
      const other = await createTenant(server.client);
      const foreign = await server.client.get(`/bots/${tenant.botKey}/conversations/ann/export`, { token: other.accountToken });
      assert.equal(foreign.status, 403, "another account's bot, as every bot route answers");
      assert.equal(foreign.body.Code, 'TOKEN_SCOPE');
      await chatOk(server, tenant.botToken, { UserId: 'gone', Text: 'hello' });
      assert.equal((await server.client.post('/custom/state', { UserId: 'gone', State: 'forget' }, { token: tenant.botToken })).status, 202);
      assert.ok(await eventually(async () => (await exported('gone')).status === 404));
      assert.equal((await exported('gone')).body.Code, 'CONVERSATION_NOT_FOUND');
    });
  });
}
