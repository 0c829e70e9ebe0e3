// Property-based uploaded documents (issue 35, "the fuzz properties gain uploaded documents"):
// DOCX, PDF, HTML, text and JSON bodies made here, with amplification (a paragraph repeated up to
// past the caps, a PDF's pages sharing one stream), NUL, lone surrogates (as JSON escapes, as
// character references in a DOCX, as the CESU bytes of a file) and the hostile strings of the
// other properties. Whatever is sent: never a 5xx; an error is JSON with a catalogue Code at its
// status; a refused document leaves the bot's sources as they were; the server answers afterwards.
// FUZZ_RUNS and FUZZ_SEED as for hostile-requests.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { errorCatalogue } from '../../src/shared/errors.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { documentXml, docxOfXml, sharedStreamPdf, upload } from '../support/knowledge-files.js';
import { base, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { controlString, hostileString, loneSurrogateString } from './arbitraries.js';

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 16));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** Text pieces a document is made of. */
const piece = fc.oneof(
  fc.constantFrom('Pets travel in the cabin.', '# Heading', '\0', 'a\0b', '&#0;', '&#xD800;', '\r\n', '\n\n', '<b>bold</b>', '( ) \\'),
  loneSurrogateString,
  controlString,
  hostileString.filter((s): s is string => typeof s === 'string' && s.length < 2_000),
);

/** How many times the document's paragraph is repeated: up to past the text, passage and XML caps. */
const repeat = fc.constantFrom(1, 3, 100, 25_000, 400_000);

type Doc = { label: string; send: (server: TestServer, tenant: Tenant) => Promise<{ status: number; body: any; text: string }> };

const escapeXml = (text: string) => text.replace(/&(?!#)/g, '&amp;').replace(/</g, '&lt;');
const file =
  (name: string, data: Buffer): Doc['send'] =>
  (server, tenant) =>
    upload(server.client, 'POST', base(tenant), tenant.accountToken, { name, data });
const json =
  (body: object): Doc['send'] =>
  (server, tenant) =>
    server.client.post(base(tenant), body, { token: tenant.accountToken });

const documentArb: fc.Arbitrary<Doc> = fc
  .tuple(fc.constantFrom('docx', 'pdf', 'html', 'txt', 'md', 'cesu', 'json-text', 'json-html', 'json-faq'), fc.array(piece, { minLength: 1, maxLength: 6 }), repeat)
  .map(([kind, pieces, times]) => {
    const paragraph = pieces.join(' ');
    const label = `${kind} ×${times} ${JSON.stringify(paragraph).slice(0, 120)}`;
    // what is repeated past 10 MiB of JSON or file bytes is refused by size before it is read: kept below
    const capped = (n: number) => Math.max(1, Math.min(times, Math.floor((8 * 1024 * 1024) / Math.max(1, Buffer.byteLength(paragraph) + 2) / n)));
    const repeated = (sep: string, n = 1) => Array(capped(n)).fill(paragraph).join(sep);
    switch (kind) {
      case 'docx': {
        const xml = documentXml(
          Array(Math.min(times, 400_000))
            .fill(`<w:p><w:r><w:t>${escapeXml(paragraph)}</w:t></w:r></w:p>`)
            .join(''),
        );
        return { label, send: async (server, tenant) => file('fuzz.docx', await docxOfXml(xml))(server, tenant) };
      }
      case 'pdf':
        return { label, send: file('fuzz.pdf', sharedStreamPdf(Math.min(times, 2_100), pieces)) };
      case 'html':
        return { label, send: file('fuzz.html', Buffer.from(`<h1>${paragraph}</h1>${repeated('<p>', 2)}`)) };
      case 'cesu':
        // a surrogate's UTF-8-like bytes (CESU-8) and a raw NUL in a text file
        return { label, send: file('fuzz.txt', Buffer.concat([Buffer.from(repeated('\n\n')), Buffer.from([0xed, 0xa0, 0x80, 0x00])])) };
      case 'json-text':
        return { label, send: json({ Name: paragraph.slice(0, 100) || 'x', Text: repeated('\n\n') }) };
      case 'json-html':
        return { label, send: json({ Name: 'fuzz', Html: `<p>${repeated('</p><p>', 2)}</p>` }) };
      case 'json-faq':
        return { label, send: json({ Name: 'fuzz', Faq: Array(Math.min(capped(2), 25_000)).fill({ Question: paragraph, Answer: paragraph }) }) };
      default:
        return { label, send: file(`fuzz.${kind}`, Buffer.from(repeated('\n\n'))) };
    }
  });

for (const kind of databaseKinds()) {
  describe(`uploaded documents (${kind})`, { timeout: 900_000 }, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    test('never a 5xx; a refusal is a catalogue error and saves nothing', async () => {
      await fc.assert(
        fc.asyncProperty(documentArb, async (doc) => {
          const before = await sourceIds(server, tenant);
          const res = await doc.send(server, tenant);
          assert.ok(res.status < 500, `${doc.label} → ${res.status} ${res.text.slice(0, 500)}`);
          if (res.status >= 400) {
            const entry = errorCatalogue[res.body?.Code as keyof typeof errorCatalogue];
            assert.ok(entry, `${doc.label} → ${res.status} without a catalogue Code: ${res.text.slice(0, 300)}`);
            assert.equal(res.status, entry.status, doc.label);
            assert.deepEqual(await sourceIds(server, tenant), before, `${doc.label} → ${res.status} changed the sources`);
          } else {
            assert.equal(res.status, 201, doc.label);
            // a source is read back whole (streamed), and deleted, whatever it holds
            const read = await server.client.get(`${base(tenant)}/${res.body.SourceId}`, { token: tenant.accountToken });
            assert.equal(read.status, 200, `${doc.label}: GET → ${read.status} ${read.text.slice(0, 300)}`);
            assert.equal(read.body.SourceId, res.body.SourceId);
            assert.equal((await server.client.delete(`${base(tenant)}/${res.body.SourceId}`, { token: tenant.accountToken })).status, 204);
          }
          assert.equal((await server.client.get('/health')).status, 200);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  });
}
