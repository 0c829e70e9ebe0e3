// Issue 40 "Import a bot…": the designer's import routes (/console/api/bots/import and its preview)
// take the export as POST /bots/import does, with the session cookie of whoever may make a bot
// (designers and admins): the preview creates nothing; the import makes and publishes the bot,
// answers it as the bot picker lists it (never its API secret) with the report, whose entries name
// the interaction to finish by hand; a broken file is a 400 with its Code and nothing is made.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { fixtureText } from '../support/import-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const form = (name: string, content: string, format?: string) => {
  const body = new FormData();
  if (format) body.append('Format', format);
  body.append('file', new Blob([content]), name);
  return body;
};
const typebot = () => form('typebot-constructs.json', fixtureText('typebot-constructs.json'));

for (const kind of databaseKinds()) {
  describe(`the console imports bots (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let designer: ReturnType<typeof consoleClient>;
    let agent: ReturnType<typeof consoleClient>;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee', 'designer');
      await addOperator(server.client, tenant.accountId, 'al@example.org', undefined, 'Al', 'agent');
      designer = consoleClient(server.client, await signIn(server.client, 'dee@example.org'));
      agent = consoleClient(server.client, await signIn(server.client, 'al@example.org'));
    });
    after(() => server.close());

    const names = async () => (await designer.get('/bots')).body.Result.map((b: { Name: string }) => b.Name).sort();

    test('the preview answers the bot and the report, each entry with its interaction, and creates nothing', async () => {
      const before = await names();
      const res = await designer.post('/bots/import/preview', typebot());
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.Format, 'typebot');
      assert.equal(res.body.Bot.name, 'Constructs');
      assert.deepEqual(
        res.body.Report.Skipped.map((s: { What: string; Interaction?: string }) => [s.What, s.Interaction]),
        [
          ['a second response mapping', 'Big order'],
          ['a "Script" block', 'Small order'],
        ],
      );
      assert.deepEqual(await names(), before);
    });

    test('the import makes and publishes the bot, answered without credentials', async () => {
      const res = await designer.post('/bots/import', typebot());
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['BotId', 'Format', 'Name', 'Published', 'Report']);
      assert.equal(res.body.Name, 'Constructs');
      assert.equal(res.body.Published, true);
      assert.equal(res.body.Report.Converted.Interactions, 7);
      const listed = (await designer.get('/bots')).body.Result.find((b: { BotId: string }) => b.BotId === res.body.BotId);
      assert.deepEqual(listed, { BotId: res.body.BotId, Name: 'Constructs', Published: true });
      const draft = await designer.get(`/bots/${res.body.BotId}/draft`);
      assert.equal(draft.status, 200, draft.text);
      assert.ok(draft.body.behaviours[0].interactions.some((i: { name: string }) => i.name === 'Big order'));
    });

    test('a broken or foreign file, or a format it is not: 400 with the Code; nothing is made', async () => {
      const before = await names();
      const broken = await designer.post('/bots/import/preview', form('broken.json', '{"version": "6.1", "groups": ['));
      assert.equal(broken.status, 400);
      assert.equal(broken.body.Code, 'IMPORT_INVALID');
      assert.equal(broken.body.File, 'broken.json');
      const foreign = await designer.post('/bots/import', form('notes.json', '{"hello": "world"}'));
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.Code, 'IMPORT_UNSUPPORTED');
      const wrongFormat = await designer.post('/bots/import', form('typebot-constructs.json', fixtureText('typebot-constructs.json'), 'rasa'));
      assert.equal(wrongFormat.status, 400);
      assert.equal(wrongFormat.body.Code, 'IMPORT_UNSUPPORTED');
      const noFile = await designer.post('/bots/import', new FormData());
      assert.equal(noFile.status, 400, noFile.text);
      assert.equal(noFile.body.Code, 'MISSING_FIELD');
      assert.deepEqual(await names(), before);
    });

    test('an agent may not import (403 ROLE_FORBIDDEN), as an agent may not make a bot', async () => {
      const before = await names();
      for (const path of ['/bots/import', '/bots/import/preview']) {
        const res = await agent.post(path, typebot());
        assert.equal(res.status, 403, `${path}: ${res.text}`);
        assert.equal(res.body.Code, 'ROLE_FORBIDDEN');
      }
      assert.deepEqual(await names(), before);
    });
  });
}
