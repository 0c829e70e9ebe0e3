// Issue 35 finding 4: a NUL in an uploaded document answered 500 INTERNAL on PostgreSQL (22P05:
// its text cannot hold NUL, nor its JSON functions turn a `\u0000` escape into text), and a source
// over 1 MiB ended `failed`; SQLite stored it. Decided once (docs/decisions.md "Storage"): NUL and
// lone surrogates become U+FFFD in every text either database stores, at the store's parameter
// binding. Each case below is a document or a bot text carrying one, on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { botFile, chat, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { docxFile, upload } from '../support/knowledge-files.js';
import { base, settled } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;
const R = '\ufffd';

for (const kind of databaseKinds()) {
  describe(`NUL in what is stored becomes U+FFFD (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());
    const send = (name: string, data: Buffer) => upload(server.client, 'POST', base(tenant), tenant.accountToken, { name, data });
    const textsOf = async (id: string): Promise<string[]> => {
      const res = await server.client.get(`${base(tenant)}/${id}`, { token: tenant.accountToken });
      assert.equal(res.status, 200, res.text);
      return res.body.Passages.map((p: any) => `${p.Heading ?? ''}|${p.Text}`);
    };

    test('a .txt with NUL bytes', async () => {
      const res = await send('nul.txt', Buffer.from('# Ferry\u0000times\n\nThe ferry\u0000leaves at eight.'));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.Status, 'ready');
      assert.deepEqual(await textsOf(res.body.SourceId), [`Ferry${R}times|The ferry${R}leaves at eight.`]);
    });

    test('an .html with a raw NUL', async () => {
      const res = await send('nul.html', Buffer.from('<h1>Gift\u0000cards</h1><p>Gift cards never\u0000expire.</p>'));
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(await textsOf(res.body.SourceId), [`Gift${R}cards|Gift cards never${R}expire.`]);
    });

    test('a .docx whose text holds &#0; and a lone surrogate (&#xD800;)', async () => {
      const res = await send('nul.docx', await docxFile([{ heading: 'Parking' }, { xml: 'Free&#0;parking behind the shop&#xD800;.' }]));
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(await textsOf(res.body.SourceId), [`Parking|Free${R}parking behind the shop${R}.`]);
    });

    test('a source over 1 MiB with NUL is indexed, not failed', async () => {
      const line = 'The harbour tour\u0000starts at dawn and returns before noon every day.\n\n';
      const res = await send('big.txt', Buffer.from(line.repeat(Math.ceil((1.2 * MiB) / line.length))));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.Status, 'indexing');
      const done = await settled(server, tenant, res.body.SourceId);
      assert.deepEqual([done.Status, done.Error ?? null], ['ready', null]);
      assert.ok(done.Passages[0].Text.startsWith(`The harbour tour${R}starts at dawn`), done.Passages[0].Text);
    });

    test('a bot file with NUL (a YAML "\\0") is refused like a JSON one, 400 INVALID_REQUEST, and nothing changes (decisions.md "Chat")', async () => {
      const before = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      const bot = botFile([{ name: 'Hello', actions: [text('Hi {{greeting}}')] }], { name: 'placeholder', variables: { greeting: 'placeholder' } });
      const yaml = toYaml(bot).replace('name: placeholder', 'name: "Nul\\0bot"').replace('greeting: placeholder', 'greeting: "a\\0b"');
      const saved = await server.client.put(`/bots/${tenant.botKey}`, undefined, { token: tenant.accountToken, raw: yaml, contentType: 'application/yaml' });
      assert.equal(saved.status, 400, saved.text);
      assert.equal(saved.body.Code, 'INVALID_REQUEST');
      const after = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.deepEqual(after.body, before.body);
    });

    test('a chat Text or Variables value with NUL is still refused at the API (decisions.md "Chat")', async () => {
      for (const body of [
        { UserId: 'nul-api', Text: 'a\u0000b' },
        { UserId: 'nul-api', Variables: [{ Name: 'v', Value: 'a\u0000b' }] },
      ]) {
        const res = await chat(server, tenant.botToken, body);
        assert.deepEqual([res.status, res.body.Code], [400, 'INVALID_REQUEST'], res.text);
      }
    });
  });
}
