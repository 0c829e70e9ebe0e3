// zip-size.ts: a DOCX's parts are measured by inflating them, with the cap as the inflater's limit,
// whatever the zip's directory says.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import JSZip from 'jszip';
import { DocumentTooLarge } from './document-limits.js';
import { DocumentError } from './passages.js';
import { checkUnzippedSize } from './zip-size.js';

const zipOf = async (files: Record<string, string>, compression: 'DEFLATE' | 'STORE') => {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text);
  return zip.generateAsync({ type: 'nodebuffer', compression });
};

test('parts up to the cap pass, deflated or stored; one byte more is KnowledgeSourceXmlBytes', async () => {
  for (const compression of ['DEFLATE', 'STORE'] as const) {
    const zip = await zipOf({ 'a.xml': 'a'.repeat(600), 'b.xml': 'b'.repeat(400) }, compression);
    checkUnzippedSize(zip, 1_000);
    assert.throws(
      () => checkUnzippedSize(zip, 999),
      (error: unknown) => error instanceof DocumentTooLarge && error.detail.Limit === 'KnowledgeSourceXmlBytes' && error.detail.Max === 999,
    );
  }
});

test('sizes the directory lies about are not believed', async () => {
  const zip = await zipOf({ 'word/document.xml': 'x'.repeat(100_000) }, 'DEFLATE');
  // the central directory's uncompressed size (offset 24 of the entry) claims 10 bytes
  const entry = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  zip.writeUInt32LE(10, entry + 24);
  assert.throws(() => checkUnzippedSize(zip, 50_000), DocumentTooLarge);
});

test('what is not a zip is not a readable DOCX', () => {
  assert.throws(
    () => checkUnzippedSize(Buffer.from('not a zip at all')),
    (error: unknown) => error instanceof DocumentError && !(error instanceof DocumentTooLarge),
  );
});
