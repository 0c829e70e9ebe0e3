// Issue 37 "New bot": a designer or admin makes, duplicates, renames and deletes bots in the console
// without a terminal. Templates are ordinary bot files (assets/templates/) that chat at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { templateFile, templateList, TEMPLATE_IDS, type TemplateId } from '../../src/bots/templates.js';
import { validateBotFile } from '../../src/bots/validate.js';
import { addOperator, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { botToken, createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

test('every template is a valid bot file with a name and a description', () => {
  assert.deepEqual(
    templateList().map((t) => t.TemplateId),
    ['empty', 'support-faq', 'order-tracking', 'lead-capture'],
  );
  for (const id of TEMPLATE_IDS) {
    const result = validateBotFile(templateFile(id as TemplateId, 'Checked'));
    assert.equal(result.ok, true, `${id}: ${JSON.stringify(result)}`);
    assert.ok(templateList().find((t) => t.TemplateId === id)!.Description.length > 20, id);
  }
});

for (const kind of databaseKinds()) {
  describe(`console bots: new, duplicate, rename, delete (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    let designer: ReturnType<typeof consoleClient>;
    let agent: ReturnType<typeof consoleClient>;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      other = await createTenant(server.client);
      await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee', 'designer');
      await addOperator(server.client, tenant.accountId, 'al@example.org', undefined, 'Al', 'agent');
      designer = consoleClient(server.client, await signIn(server.client, 'dee@example.org'));
      agent = consoleClient(server.client, await signIn(server.client, 'al@example.org'));
    });
    after(() => server.close());

    const headers = () => ({ headers: { cookie: designer.cookie } });
    const names = async () => (await designer.get('/bots')).body.Result.map((b: any) => b.Name).sort();
    const chatWith = async (botId: string, body: Record<string, unknown>) => {
      const bot = (await server.running.store.bots.byId(botId))!;
      return server.client.post('/custom/chat', body, { token: await botToken(server.client, tenant.accountKey, bot.apiKey, bot.apiSecret) });
    };

    test('templates are listed; a new bot from the FAQ template is published and chats at once', async () => {
      const list = await designer.get('/bot-templates');
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.Result.map((t: any) => [t.TemplateId, t.Name]),
        [
          ['empty', 'New bot'],
          ['support-faq', 'Support FAQ'],
          ['order-tracking', 'Order tracking'],
          ['lead-capture', 'Lead capture'],
        ],
      );
      const made = await designer.post('/bots', { Name: '  Bike shop help  ', TemplateId: 'support-faq' });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.body.Name, 'Bike shop help');
      assert.equal(made.body.Published, true);
      const reply = await chatWith(made.body.BotId, { UserId: 'first-visitor' });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.Parts[0].Text, 'Hello! Ask me anything about our products, orders or opening hours.');
      const human = await chatWith(made.body.BotId, { UserId: 'first-visitor', Text: 'person' });
      assert.equal(human.body.ControlType, 1, 'the template hands over');
      const empty = await designer.post('/bots', { Name: 'Blank' });
      assert.equal(empty.status, 201, empty.text);
      assert.equal((await chatWith(empty.body.BotId, { UserId: 'v' })).body.Parts[0].Text, 'Hello! How can I help you?');
    });

    test('duplicate copies the draft under a new name; rename renames; delete deletes', async () => {
      const made = (await designer.post('/bots', { Name: 'Orders', TemplateId: 'order-tracking' })).body;
      const copy = await designer.post(`/bots/${made.BotId}/duplicate`, { Name: 'Orders (copy)' });
      assert.equal(copy.status, 201, copy.text);
      assert.notEqual(copy.body.BotId, made.BotId);
      assert.equal((await chatWith(copy.body.BotId, { UserId: 'v' })).body.Parts[0].Text, 'Hello! I can check on an order for you.');
      const renamed = await server.client.patch(`/console/api/bots/${copy.body.BotId}`, { Name: 'Order desk' }, headers());
      assert.equal(renamed.status, 200, renamed.text);
      assert.deepEqual(renamed.body, { BotId: copy.body.BotId, Name: 'Order desk', Published: true });
      assert.ok((await names()).includes('Order desk'));
      const gone = await server.client.delete(`/console/api/bots/${copy.body.BotId}`, headers());
      assert.equal(gone.status, 200, gone.text);
      assert.deepEqual(gone.body, { BotId: copy.body.BotId, Deleted: true });
      assert.equal((await names()).includes('Order desk'), false);
      assert.equal(await server.running.store.bots.byId(copy.body.BotId), null);
      const again = await server.client.delete(`/console/api/bots/${copy.body.BotId}`, headers());
      assert.equal(again.status, 404);
      assert.equal(again.body.Code, 'BOT_NOT_FOUND');
    });

    test('bad names and unknown templates are refused with a Code, and nothing is made', async () => {
      const before = await names();
      for (const body of [{}, { Name: '' }, { Name: '   ' }, { Name: 'x'.repeat(101) }, { Name: 7 }, { Name: 'ok', TemplateId: 'nope' }]) {
        const res = await designer.post('/bots', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.body.Code, 'string', JSON.stringify(body));
      }
      assert.deepEqual(await names(), before);
    });

    test('install: the embed line with the web key; the widget gets the look set in the bot file; a light colour is refused', async () => {
      const made = (await designer.post('/bots', { Name: 'Looks', TemplateId: 'empty' })).body;
      const bot = (await server.running.store.bots.byId(made.BotId))!;
      const install = await designer.get(`/bots/${made.BotId}/install`);
      assert.equal(install.status, 200, install.text);
      assert.deepEqual(install.body, {
        WebKey: bot.webKey,
        Snippet: `<script src="${server.url}/widget.js" data-bot="${bot.webKey}"></script>`,
        TestPage: `${server.url}/demo?bot=${bot.webKey}`,
        // no messaging channel is connected yet (their links: test/e2e/console-install-links.test.ts)
        Channels: ['telegram', 'whatsapp', 'messenger', 'slack', 'sms', 'chatwoot', 'instagram', 'teams'].map((Channel) => ({ Channel, Connected: false, Link: null, Account: null })),
      });
      const plain = await server.client.get(`/web/${bot.webKey}/config`);
      assert.equal(plain.status, 200, plain.text);
      assert.deepEqual({ ...plain.body, Avatar: undefined }, { Name: 'Looks', Avatar: undefined, Color: '#1d4ed8', Greeting: '', Position: 'right' });
      const file = (await server.client.get(`/bots/${bot.apiKey}`, { token: tenant.accountToken })).body;
      const look = { enabled: true, allowedOrigins: ['*'], title: 'Bike shop', color: '#9a3412', greeting: 'We answer within minutes.', position: 'left' };
      const put = await server.client.put(`/bots/${bot.apiKey}`, { ...file, settings: { ...file.settings, channels: { web: look } } }, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
      const styled = await server.client.get(`/web/${bot.webKey}/config`);
      assert.deepEqual({ ...styled.body, Avatar: undefined }, { Name: 'Bike shop', Avatar: undefined, Color: '#9a3412', Greeting: 'We answer within minutes.', Position: 'left' });
      const light = await server.client.put(`/bots/${bot.apiKey}`, { ...file, settings: { ...file.settings, channels: { web: { ...look, color: '#fde047' } } } }, { token: tenant.accountToken });
      assert.equal(light.status, 400);
      assert.equal(light.body.Code, 'INVALID_BOT');
      assert.deepEqual(
        light.body.Problems.map((p: any) => p.Path),
        ['$.settings.channels.web.color'],
      );
      assert.equal(light.body.Problems[0].Message, "is too light for the widget's white text (contrast 1.3:1, at least 4.5:1 is needed); choose a darker colour");
      const theirs = (await server.running.store.bots.byApiKey(other.botKey))!;
      assert.equal((await designer.get(`/bots/${theirs.id}/install`)).status, 404);
    });

    test("agents may not, and another account's bot is not found", async () => {
      const res = await agent.post('/bots', { Name: 'Sneaky' });
      assert.equal(res.status, 403);
      assert.equal(res.body.Code, 'ROLE_FORBIDDEN');
      const theirs = (await server.running.store.bots.byApiKey(other.botKey))!;
      for (const res of [
        await designer.post(`/bots/${theirs.id}/duplicate`, { Name: 'Mine now' }),
        await server.client.patch(`/console/api/bots/${theirs.id}`, { Name: 'Renamed' }, headers()),
        await server.client.delete(`/console/api/bots/${theirs.id}`, headers()),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.Code, 'BOT_NOT_FOUND');
      }
      assert.notEqual(await server.running.store.bots.byId(theirs.id), null);
      assert.equal((await server.running.store.bots.byId(theirs.id))!.name, theirs.name);
    });
  });
}
