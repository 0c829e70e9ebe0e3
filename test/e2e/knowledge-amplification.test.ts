// Issue 35, findings 2 and 6: a document small on the wire but large once read is refused while it
// is read (413 PAYLOAD_TOO_LARGE with the cap's Limit and Max), a bot's passages are capped, and a
// large source meeting a full indexing queue is refused before anything is written (503
// KNOWLEDGE_BUSY). Every refusal leaves the bot's sources as they were. The server runs with no
// indexing queue (COLLOQUY_INDEXING_QUEUE=0: one document at a time) so that the queue can be filled
// by one slow document.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { documentXml, docxOfXml, sharedStreamPdf, upload } from '../support/knowledge-files.js';
import { addSource, base, longDocument, settled, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;

/** n one-line sections: one passage each */
const sections = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `# h${from + i}\nx${from + i}`).join('\n');

for (const kind of databaseKinds()) {
  describe(`knowledge amplification (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_INDEXING_QUEUE: '0' });
      tenant = await createTenant(server.client);
    });
    after(() => server.close());
    const send = (file: { name: string; data: Buffer }, who: Tenant = tenant) => upload(server.client, 'POST', base(who), who.accountToken, file);
    const refused = (res: { status: number; body: any; text: string }, status: number, code: string, limit: string, max: number) => {
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.Code, code);
      assert.equal(res.body.Limit, limit);
      assert.equal(res.body.Max, max);
    };

    test('a DOCX of 40 MiB of XML zipped small: 413 while inflating, nothing saved, /health answers meanwhile', async () => {
      const keep = await addSource(server, tenant, { Name: 'keep', Text: 'The ferry leaves at eight.' });
      const paragraph = `<w:p><w:r><w:t>${'lorem ipsum '.repeat(80)}</w:t></w:r></w:p>`;
      const bomb = await docxOfXml(documentXml(paragraph.repeat(Math.ceil((40 * MiB) / paragraph.length))));
      assert.ok(bomb.length < MiB, `the bomb is ${bomb.length} bytes`);
      const [res, health] = await Promise.all([send({ name: 'bomb.docx', data: bomb }), server.client.get('/health')]);
      refused(res, 413, 'PAYLOAD_TOO_LARGE', 'KnowledgeSourceXmlBytes', 32 * MiB);
      assert.equal(health.status, 200);
      assert.deepEqual(await sourceIds(server, tenant), [keep.SourceId]);
    });

    test('a PDF of 2,001 pages sharing one content stream: 413 on its page count', async () => {
      const pdf = sharedStreamPdf(2_001, ['Pets travel in the cabin.']);
      refused(await send({ name: 'pages.pdf', data: pdf }), 413, 'PAYLOAD_TOO_LARGE', 'KnowledgeSourcePages', 2_000);
    });

    test('a PDF of 160 pages whose one stream holds 70,000 characters: 413 past 10 Mi characters of text', async () => {
      const lines = Array.from({ length: 700 }, (_, i) => `Line ${i} of the shared page says the same words again and again for the reader ${'x'.repeat(20)}`);
      const pdf = sharedStreamPdf(160, lines);
      assert.ok(pdf.length < MiB);
      refused(await send({ name: 'text.pdf', data: pdf }), 413, 'PAYLOAD_TOO_LARGE', 'KnowledgeSourceText', 10 * MiB);
    });

    test('a text of 20,001 one-line sections: 413 past 20,000 passages, as JSON and as a file (an FAQ stops sooner, at 1,000 pairs)', async () => {
      const text = sections(20_001);
      const json = await server.client.post(base(tenant), { Name: 'many', Text: text }, { token: tenant.accountToken });
      refused(json, 413, 'PAYLOAD_TOO_LARGE', 'KnowledgeSourcePassages', 20_000);
      refused(await send({ name: 'many.md', data: Buffer.from(text) }), 413, 'PAYLOAD_TOO_LARGE', 'KnowledgeSourcePassages', 20_000);
      const faq = Array.from({ length: 20_001 }, (_, i) => ({ Question: `q${i}`, Answer: `a${i}` }));
      refused(await server.client.post(base(tenant), { Name: 'faq', Faq: faq }, { token: tenant.accountToken }), 400, 'LIMIT_EXCEEDED', 'FaqPairs', 1_000);
    });

    test('a bot holds at most 100,000 passages: the one more is refused (400 LIMIT_EXCEEDED), a replacement may stay at the cap', async () => {
      const bot = await createTenant(server.client);
      const ids: string[] = [];
      for (let n = 0; n < 5; n++) ids.push((await addSource(server, bot, { Name: `part ${n}`, Text: sections(20_000, n * 20_000) })).SourceId);
      const one = await server.client.post(base(bot), { Name: 'one more', Text: 'One passage too many.' }, { token: bot.accountToken });
      refused(one, 400, 'LIMIT_EXCEEDED', 'KnowledgePassages', 100_000);
      assert.deepEqual(await sourceIds(server, bot), [...ids].sort());
      // replacing a source counts the bot's passages without its old ones
      const put = await server.client.put(`${base(bot)}/${ids[0]}`, { Name: 'part 0', Text: sections(20_000, 7) }, { token: bot.accountToken });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.Chunks, 20_000);
    });

    test('a large source meeting a full indexing queue: 503 KNOWLEDGE_BUSY and nothing saved', async () => {
      const bot = await createTenant(server.client);
      // a slow document (HTML takes seconds to convert) takes the one place (queue 0), then a second
      // large one finds no room
      const html = `<div><p>${longDocument(6 * MiB)
        .split('\n\n')
        .join('</p><p>')}</p></div>`;
      const slow = await addSource(server, bot, { Name: 'slow', Html: html });
      assert.equal(slow.Status, 'indexing');
      const busy = await server.client.post(base(bot), { Name: 'second', Text: longDocument(2 * MiB) }, { token: bot.accountToken });
      refused(busy, 503, 'KNOWLEDGE_BUSY', 'IndexingQueue', 0);
      const replaced = await server.client.put(`${base(bot)}/${slow.SourceId}`, { Name: 'replaced', Text: longDocument(2 * MiB) }, { token: bot.accountToken });
      refused(replaced, 503, 'KNOWLEDGE_BUSY', 'IndexingQueue', 0);
      assert.deepEqual(await sourceIds(server, bot), [slow.SourceId]);
      const done = await settled(server, bot, slow.SourceId);
      assert.equal(done.Name, 'slow');
      assert.equal(done.Status, 'ready');
    });
  });
}
