// knowledge.md "Sources": each kind of document through the API, passages cut at headings,
// paragraphs and sentences, the limits and errors, large documents indexed after the 201, and
// another account or bot never reaching a source.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { addSource, base, longDocument, PETS_MD, search, settled, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;

for (const kind of databaseKinds()) {
  describe(`knowledge sources (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());
    const get = (path: string, t = tenant) => server.client.get(path, { token: t.accountToken });

    test('Markdown: ready in the 201, one passage per section, each knowing its heading', async () => {
      const created = await addSource(server, tenant, { Name: 'Travel rules', Text: PETS_MD });
      assert.equal(created.Status, 'ready');
      assert.equal(created.Kind, 'text');
      assert.equal(created.Chunks, 3);
      assert.equal(created.Bytes, Buffer.byteLength(PETS_MD));
      assert.equal(created.Error, null);
      const one = await get(`${base(tenant)}/${created.SourceId}`);
      assert.equal(one.status, 200);
      assert.deepEqual(
        one.body.Passages.map((p: any) => p.Heading),
        ['Pets', 'Luggage', 'Refunds'],
      );
      assert.match(one.body.Passages[0].Text, /^Small dogs and cats may travel in the cabin/);
      const list = await get(base(tenant));
      assert.ok(list.body.Result.some((s: any) => s.SourceId === created.SourceId && s.Name === 'Travel rules'));
    });

    test('HTML: scripts, styles and navigation go, headings title the passages', async () => {
      const html = `<html><head><style>.x{color:red}</style><script>var secret = "tracking";</script></head><body>
        <nav><a href="/">Home</a> <a href="/shop">Shop menu</a></nav>
        <h1>Opening hours</h1><p>The shop opens at <b>nine</b> every weekday.</p>
        <h2>Holidays</h2><p>Closed on public holidays.</p><script>alert("x")</script></body></html>`;
      const created = await addSource(server, tenant, { Name: 'Hours page', Html: html });
      assert.equal(created.Kind, 'html');
      const passages = (await get(`${base(tenant)}/${created.SourceId}`)).body.Passages;
      assert.deepEqual(
        passages.map((p: any) => [p.Heading, p.Text]),
        [
          ['Opening hours', 'The shop opens at nine every weekday.'],
          ['Holidays', 'Closed on public holidays.'],
        ],
      );
    });

    test('FAQ: each entry is one passage holding its question and its answer', async () => {
      const created = await addSource(server, tenant, {
        Name: 'FAQ',
        Faq: [
          { Question: 'Do you ship to Norway?', Answer: 'Yes, in 5 days.' },
          { Question: 'Can I pay by card?', Answer: 'Visa and Mastercard.' },
        ],
      });
      assert.equal(created.Kind, 'faq');
      assert.equal(created.Chunks, 2);
      const passages = (await get(`${base(tenant)}/${created.SourceId}`)).body.Passages;
      assert.deepEqual(
        passages.map((p: any) => p.Text),
        ['Do you ship to Norway?\nYes, in 5 days.', 'Can I pay by card?\nVisa and Mastercard.'],
      );
    });

    test('a 300 KB document is cut into passages of at most 1,500 characters, none lost', async () => {
      const document = longDocument(300 * 1024);
      const created = await addSource(server, tenant, { Name: 'Manual', Text: document });
      assert.equal(created.Status, 'ready');
      const passages = (await get(`${base(tenant)}/${created.SourceId}`)).body.Passages;
      assert.equal(passages.length, created.Chunks);
      assert.ok(passages.length >= 200, `${passages.length} passages`);
      assert.ok(
        passages.every((p: any) => p.Text.length <= 1500),
        `longest ${Math.max(...passages.map((p: any) => p.Text.length))}`,
      );
      // every sentence is in some passage, under its own section's heading
      const section7 = passages.filter((p: any) => p.Heading === 'Section 7 about topic7');
      assert.equal(
        section7
          .map((p: any) => p.Text)
          .join(' ')
          .split('Sentence').length - 1,
        24,
      );
    });

    test('a source over 1 MiB answers indexing, and is searched only once whole', async () => {
      const document = longDocument(1.5 * MiB);
      const created = await addSource(server, tenant, { Name: 'Big manual', Text: document });
      assert.equal(created.Status, 'indexing');
      assert.equal(created.Chunks, 0);
      const ready = await settled(server, tenant, created.SourceId);
      assert.equal(ready.Status, 'ready');
      assert.ok(ready.Chunks > 1000);
      assert.ok(ready.Passages.every((p: any) => p.Text.length <= 1500));
      const found = await search(server, tenant, 'item50003');
      assert.equal(found[0].SourceId, created.SourceId);
    });

    test('bad documents are refused with the codes of knowledge.md and nothing changes', async () => {
      const before = await sourceIds(server, tenant);
      const post = (body: unknown, options: any = {}) => server.client.post(base(tenant), body, { token: tenant.accountToken, ...options });
      const cases: Array<[string, Promise<any>, number, string]> = [
        ['empty text', post({ Name: 'x', Text: '  \n\n ' }), 400, 'INVALID_DOCUMENT'],
        ['html with no readable text', post({ Name: 'x', Html: '<html><script>var a = 1;</script><nav>Home</nav></html>' }), 400, 'INVALID_DOCUMENT'],
        ['faq of empty answers', post({ Name: 'x', Faq: [{ Question: 'Why?', Answer: ' ' }] }), 400, 'INVALID_DOCUMENT'],
        ['two documents', post({ Name: 'x', Text: 'a', Html: '<p>b</p>' }), 400, 'INVALID_REQUEST'],
        ['no document', post({ Name: 'x' }), 400, 'INVALID_REQUEST'],
        ['no name', post({ Text: 'hello' }), 400, 'MISSING_FIELD'],
        ['over 10 MiB', post({ Name: 'x', Text: 'a'.repeat(10 * MiB + 1) }), 413, 'PAYLOAD_TOO_LARGE'],
        ['a file type the server does not read', post(undefined, { raw: '%PDF-1.4 broken', contentType: 'application/pdf' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ];
      for (const [name, pending, status, code] of cases) {
        const res = await pending;
        assert.equal(res.status, status, `${name}: ${res.text.slice(0, 200)}`);
        assert.equal(res.body.Code, code, name);
      }
      assert.deepEqual(await sourceIds(server, tenant), before);
    });

    test('replace and delete take effect at once; a bad replacement changes nothing', async () => {
      const created = await addSource(server, tenant, { Name: 'Parking', Text: 'Parking in the garage costs 5 euros an hour.' });
      assert.equal((await search(server, tenant, 'garage'))[0]?.SourceId, created.SourceId);
      const bad = await server.client.put(`${base(tenant)}/${created.SourceId}`, { Name: 'Parking', Text: '' }, { token: tenant.accountToken });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Code, 'INVALID_DOCUMENT');
      assert.equal((await search(server, tenant, 'garage'))[0]?.SourceId, created.SourceId);
      const put = await server.client.put(`${base(tenant)}/${created.SourceId}`, { Name: 'Parking v2', Text: 'The car park by the station is free on Sundays.' }, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.Name, 'Parking v2');
      assert.equal(put.body.Status, 'ready');
      assert.deepEqual(await search(server, tenant, 'garage'), []);
      assert.equal((await search(server, tenant, 'station Sundays'))[0].SourceId, created.SourceId);
      const gone = await server.client.delete(`${base(tenant)}/${created.SourceId}`, { token: tenant.accountToken });
      assert.equal(gone.status, 204);
      assert.deepEqual(await search(server, tenant, 'station Sundays'), []);
      assert.equal((await get(`${base(tenant)}/${created.SourceId}`)).body.Code, 'SOURCE_NOT_FOUND');
      const again = await server.client.delete(`${base(tenant)}/${created.SourceId}`, { token: tenant.accountToken });
      assert.equal(again.status, 404);
      assert.equal(again.body.Code, 'SOURCE_NOT_FOUND');
    });

    test('another account and another bot never see a source or a passage', async () => {
      const created = await addSource(server, tenant, { Name: 'Secret', Text: 'The vault code is kept in the zebrafish drawer.' });
      const stranger = await createTenant(server.client);
      const own = await server.client.get(`${base(tenant)}/${created.SourceId}`, { token: stranger.accountToken });
      assert.equal(own.status, 403);
      assert.equal(own.body.Code, 'TOKEN_SCOPE');
      // the stranger's own bot, naming the source id: not theirs
      const theirs = await get(`${base(stranger)}/${created.SourceId}`, stranger);
      assert.equal(theirs.body.Code, 'SOURCE_NOT_FOUND');
      const del = await server.client.delete(`${base(stranger)}/${created.SourceId}`, { token: stranger.accountToken });
      assert.equal(del.body.Code, 'SOURCE_NOT_FOUND');
      assert.deepEqual(await search(server, stranger, 'zebrafish drawer'), []);
      // a second bot of the same account
      const second = await server.client.post('/bots', supportBot(), { token: tenant.accountToken });
      assert.equal(second.status, 201);
      const sibling = { ...tenant, botKey: second.body.APIKey };
      assert.deepEqual(await search(server, sibling, 'zebrafish drawer'), []);
      assert.equal((await get(`${base(sibling)}/${created.SourceId}`)).body.Code, 'SOURCE_NOT_FOUND');
      assert.equal((await search(server, tenant, 'zebrafish'))[0].SourceId, created.SourceId);
    });
  });
}
