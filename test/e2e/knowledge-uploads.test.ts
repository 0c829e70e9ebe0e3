// knowledge.md "Sources": files uploaded as multipart/form-data (PDF, DOCX, text, Markdown, HTML)
// are parsed on the indexing thread and searched like any source; bad files (an unsupported type,
// over 10 MiB, empty, a broken PDF, a PDF without a text layer) are refused and change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { docxFile, pdfFile, upload } from '../support/knowledge-files.js';
import { base, search, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;

for (const kind of databaseKinds()) {
  describe(`knowledge uploads (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());
    const send = (file: { name: string; data: Buffer }, fields: Record<string, string> = {}, method: 'POST' | 'PUT' = 'POST', path = base(tenant)) =>
      upload(server.client, method, path, tenant.accountToken, file, fields);
    const passagesOf = async (id: string) => (await server.client.get(`${base(tenant)}/${id}`, { token: tenant.accountToken })).body.Passages;

    test('a PDF: each page its text, named by the Name field, searched at once', async () => {
      const pdf = pdfFile([['Pets travel in the cabin in a closed carrier.'], ['Refunds are paid within (14) days.']]);
      const res = await send({ name: 'rules.pdf', data: pdf }, { Name: 'Travel rules PDF' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.Kind, 'pdf');
      assert.equal(res.body.Name, 'Travel rules PDF');
      assert.equal(res.body.Status, 'ready');
      assert.equal(res.body.Bytes, pdf.length);
      const texts = (await passagesOf(res.body.SourceId)).map((p: any) => p.Text);
      assert.deepEqual(texts, ['Pets travel in the cabin in a closed carrier.\n\nRefunds are paid within (14) days.']);
      assert.equal((await search(server, tenant, 'carrier'))[0].SourceId, res.body.SourceId);
    });

    test("a DOCX: Word headings title the passages; the file's name names it when Name is absent", async () => {
      const docx = await docxFile([{ heading: 'Opening hours' }, 'The shop opens at nine.', { heading: 'Parking' }, 'Free parking behind the shop.']);
      const res = await send({ name: 'Shop guide.docx', data: docx });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.Kind, 'docx');
      assert.equal(res.body.Name, 'Shop guide.docx');
      const passages = await passagesOf(res.body.SourceId);
      assert.deepEqual(
        passages.map((p: any) => [p.Heading, p.Text]),
        [
          ['Opening hours', 'The shop opens at nine.'],
          ['Parking', 'Free parking behind the shop.'],
        ],
      );
    });

    test('.md, .txt and .html files are read like Text and Html bodies', async () => {
      const md = await send({ name: 'faq.md', data: Buffer.from('# Shipping\n\nWe ship to Norway in five days.') });
      assert.equal(md.status, 201, md.text);
      assert.equal(md.body.Kind, 'text');
      assert.deepEqual(
        (await passagesOf(md.body.SourceId)).map((p: any) => p.Heading),
        ['Shipping'],
      );
      const html = await send({ name: 'page.HTML', data: Buffer.from('<h1>Gift cards</h1><script>x()</script><p>Gift cards never expire.</p>') });
      assert.equal(html.status, 201, html.text);
      assert.equal(html.body.Kind, 'html');
      assert.deepEqual(
        (await passagesOf(html.body.SourceId)).map((p: any) => [p.Heading, p.Text]),
        [['Gift cards', 'Gift cards never expire.']],
      );
    });

    test('PUT with a file replaces a source at once', async () => {
      const first = await send({ name: 'a.txt', data: Buffer.from('The lighthouse tour starts at noon.') });
      assert.equal(first.status, 201, first.text);
      const put = await send({ name: 'b.pdf', data: pdfFile([['The harbour tour starts at dawn.']]) }, { Name: 'Tours' }, 'PUT', `${base(tenant)}/${first.body.SourceId}`);
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.Kind, 'pdf');
      assert.equal(put.body.Name, 'Tours');
      assert.deepEqual(await search(server, tenant, 'lighthouse'), []);
      assert.equal((await search(server, tenant, 'harbour'))[0].SourceId, first.body.SourceId);
    });

    test('bad files are refused with the codes of knowledge.md and nothing changes', async () => {
      const keep = await send({ name: 'keep.txt', data: Buffer.from('The ferry leaves at eight.') });
      assert.equal(keep.status, 201, keep.text);
      const before = await sourceIds(server, tenant);
      const cases: Array<[string, () => Promise<any>, number, string, RegExp?]> = [
        ['an unsupported type', () => send({ name: 'photo.png', data: Buffer.from('\x89PNG....') }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
        ['no extension', () => send({ name: 'README', data: Buffer.from('hello') }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
        ['over 10 MiB', () => send({ name: 'big.txt', data: Buffer.alloc(10 * MiB + 1, 'a') }), 413, 'PAYLOAD_TOO_LARGE'],
        ['an empty file', () => send({ name: 'empty.txt', data: Buffer.alloc(0) }), 400, 'INVALID_DOCUMENT'],
        ['text that is not UTF-8', () => send({ name: 'latin.txt', data: Buffer.from([0x63, 0x61, 0x66, 0xe9]) }), 400, 'INVALID_DOCUMENT', /UTF-8/],
        ['a broken PDF', () => send({ name: 'broken.pdf', data: Buffer.from('%PDF-1.4\nthis is not a PDF at all') }), 400, 'INVALID_DOCUMENT', /not a readable PDF/],
        ['a PDF without a text layer', () => send({ name: 'scan.pdf', data: pdfFile([]) }), 400, 'INVALID_DOCUMENT', /no text layer/],
        ['a broken DOCX', () => send({ name: 'broken.docx', data: Buffer.from('PK not a zip') }), 400, 'INVALID_DOCUMENT', /not a readable DOCX/],
        ['an unknown field', () => send({ name: 'a.txt', data: Buffer.from('x') }, { Secret: 'y' }), 400, 'INVALID_REQUEST'],
        [
          'no file',
          () =>
            fetch(server.client.base + base(tenant), {
              method: 'POST',
              headers: { authorization: `Bearer ${tenant.accountToken}` },
              body: (() => {
                const f = new FormData();
                f.append('Name', 'x');
                return f;
              })(),
            }).then(async (r) => ({ status: r.status, text: '', body: await r.json() })),
          400,
          'MISSING_FIELD',
        ],
        ['a bad replacement', () => send({ name: 'scan.pdf', data: pdfFile([]) }, {}, 'PUT', `${base(tenant)}/${keep.body.SourceId}`), 400, 'INVALID_DOCUMENT'],
      ];
      for (const [name, call, status, code, message] of cases) {
        const res = await call();
        assert.equal(res.status, status, `${name}: ${String(res.text).slice(0, 200)}`);
        assert.equal(res.body.Code, code, name);
        if (message) assert.match(res.body.Message, message, name);
      }
      assert.deepEqual(await sourceIds(server, tenant), before);
      assert.equal((await search(server, tenant, 'ferry'))[0].SourceId, keep.body.SourceId);
    });

    test('a body that is not readable multipart is 400 INVALID_REQUEST, never a 500, and changes nothing', async () => {
      const before = await sourceIds(server, tenant);
      for (const body of ['{}', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated', '']) {
        const res = await fetch(`${server.client.base}${base(tenant)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.accountToken}`, 'content-type': 'multipart/form-data; boundary=xyz' },
          body,
        });
        const answer = await res.json();
        assert.equal(res.status, 400, JSON.stringify(answer));
        assert.ok(['INVALID_REQUEST', 'MISSING_FIELD'].includes(answer.Code), JSON.stringify(answer));
      }
      assert.deepEqual(await sourceIds(server, tenant), before);
    });

    test('multipart stays refused on every other route', async () => {
      const form = new FormData();
      form.append('Text', 'hello');
      const res = await fetch(`${server.client.base}${base(tenant)}/search`, { method: 'POST', headers: { authorization: `Bearer ${tenant.accountToken}` }, body: form });
      assert.equal(res.status, 415);
      assert.equal((await res.json()).Code, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });
}
