// knowledge.md "Sources", last rule: a referenced clone answers from its master's knowledge (and
// may not change it), a full clone copies the sources, deleting a bot deletes its sources, and
// backups carry no documents.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { addSource, ask, base, search, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const DOC = 'Our ferries to the glacier leave at seven every morning from pier four.';

for (const kind of databaseKinds()) {
  describe(`knowledge of clones, deleted bots and backups (${kind})`, () => {
    let server: TestServer;
    let master: Tenant;
    let sourceId: string;
    before(async () => {
      server = await startTestServer(kind);
      master = await createTenant(server.client, supportBot(), ['master-bot']);
      sourceId = (await addSource(server, master, { Name: 'Ferries', Text: DOC })).SourceId;
    });
    after(() => server.close());
    const source = { Source: { BotAPIKey: '', BotSecret: '' } };
    const keyed = (t: Tenant, key: string): Tenant => ({ ...t, botKey: key });

    test("a referenced clone searches and answers from its master's sources, and may not change them", async () => {
      const res = await server.client.post('/bot/refclone', { ...source, Source: { BotAPIKey: master.botKey, BotSecret: master.botSecret } }, { token: master.accountToken });
      assert.equal(res.status, 200, res.text);
      const clone = keyed(master, res.body.APIKey);
      assert.equal((await search(server, clone, 'glacier ferries'))[0].SourceId, sourceId);
      assert.equal((await ask(server, clone, 'when do ferries leave?')).Status, 'ANSWERED');
      assert.deepEqual(await sourceIds(server, clone), [sourceId]);
      const add = await server.client.post(base(clone), { Name: 'x', Text: 'y' }, { token: master.accountToken });
      assert.equal(add.status, 409);
      assert.equal(add.body.Code, 'STATE_CONFLICT');
      const del = await server.client.delete(`${base(clone)}/${sourceId}`, { token: master.accountToken });
      assert.equal(del.body.Code, 'STATE_CONFLICT');
      assert.deepEqual(await sourceIds(server, master), [sourceId]);
    });

    test('a full clone copies the sources: its own from then on', async () => {
      const res = await server.client.post(
        '/bot/clone',
        { Source: { BotAPIKey: master.botKey, BotSecret: master.botSecret }, Destination: { BotName: 'Copy', Variables: [] } },
        { token: master.accountToken },
      );
      assert.equal(res.status, 200, res.text);
      const copy = keyed(master, res.body.APIKey);
      const [copied] = await sourceIds(server, copy);
      assert.notEqual(copied, sourceId);
      const one = await server.client.get(`${base(copy)}/${copied}`, { token: master.accountToken });
      assert.deepEqual([one.body.Name, one.body.Status, one.body.Passages.map((p: any) => p.Text)], ['Ferries', 'ready', [DOC]]);
      const mine = await addSource(server, master, { Name: 'Later', Text: 'Kayaks are rented at the boathouse.' });
      assert.deepEqual(await search(server, copy, 'kayaks boathouse'), []);
      assert.equal((await search(server, copy, 'glacier'))[0].SourceId, copied);
      await server.client.delete(`${base(master)}/${mine.SourceId}`, { token: master.accountToken });
    });

    test('backups carry no documents', async () => {
      const backup = await server.client.get('/bots/backup', { token: master.botToken });
      assert.equal(backup.status, 200);
      assert.ok(backup.text.length > 100);
      assert.equal(backup.text.includes('glacier'), false);
    });

    test('deleting a bot deletes its sources and passages', async () => {
      const owner = await createTenant(server.client);
      await addSource(server, owner, { Name: 'Doomed', Text: 'The lighthouse museum opens on Tuesdays.' });
      const bot = await server.running.store.bots.byApiKey(owner.botKey);
      assert.equal((await server.running.store.knowledge.list(bot!.id)).length, 1);
      const gone = await server.client.delete(`/bots/${owner.botKey}`, { token: owner.accountToken });
      assert.ok(gone.status === 200 || gone.status === 204, gone.text);
      assert.deepEqual(await server.running.store.knowledge.list(bot!.id), []);
      assert.deepEqual((await server.running.store.knowledge.candidates(bot!.id, ['lighthouse', 'museum'], 'en', 5)).passages, []);
    });
  });
}
