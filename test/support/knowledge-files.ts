// Small real files for knowledge uploads (knowledge.md "Sources"), made by the tests themselves:
// a PDF 1.4 written by hand (one page per entry, Helvetica text drawn with Tj, so pdf.js finds a
// text layer; a cross-reference table with exact offsets), a PDF page with no text at all (a
// "scan"), and a DOCX: the three parts Word needs at least, zipped with JSZip (mammoth's own zip).
import JSZip from 'jszip';
import type { Client, Response } from './client.js';

const escapePdf = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);

/** A PDF whose pages hold these lines of text (an empty page list draws nothing: no text layer). */
export function pdfFile(pages: string[][]): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', ''];
  const kids: string[] = [];
  for (const lines of pages.length === 0 ? [[]] : pages) {
    const page = objects.length + 1;
    kids.push(`${page} 0 R`);
    const drawn = lines.length === 0 ? '0 0 m 10 10 l S' : `BT /F1 12 Tf 72 720 Td ${lines.map((l, i) => `${i ? '0 -16 Td ' : ''}(${escapePdf(l)}) Tj`).join(' ')} ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 ${page + 2} 0 R >> >> >>`);
    objects.push(`<< /Length ${Buffer.byteLength(drawn, 'latin1')} >>\nstream\n${drawn}\nendstream`);
    objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`;
  return pdfOf(objects);
}

/** A PDF 1.4 file of these objects (1 the catalog), with its cross-reference table. */
function pdfOf(objects: string[]): Buffer {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Word's document.xml around a body of `<w:p>` paragraphs. */
export const documentXml = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;

/** A DOCX of paragraphs; `{heading}` ones carry Word's Heading1 style; `{xml}` ones are run text as written (entities and all). */
export async function docxFile(paragraphs: Array<string | { heading: string } | { xml: string }>): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', RELS);
  const body = paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<w:p><w:r><w:t>${xmlText(p)}</w:t></w:r></w:p>`
        : 'xml' in p
          ? `<w:p><w:r><w:t>${p.xml}</w:t></w:r></w:p>`
          : `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>${xmlText(p.heading)}</w:t></w:r></w:p>`,
    )
    .join('');
  zip.file('word/document.xml', documentXml(body));
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** POST or PUT a file as multipart/form-data, as a browser form or `curl -F` would. */
export async function upload(client: Client, method: 'POST' | 'PUT', path: string, token: string, file: { name: string; data: Buffer }, fields: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file.data)]), file.name);
  const response = await fetch(client.base + path, { method, headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, headers: response.headers, body, text };
}

/**
 * A PDF of `pages` pages that all draw one content stream of these lines (issue 35: 6,500 pages
 * sharing one stream made 26,000 passages out of 1 MB): small on the wire, large once read.
 */
export function sharedStreamPdf(pages: number, lines: string[]): Buffer {
  // 1-point type a point apart: pdf.js leaves out text drawn off the page, so up to 750 lines fit
  const drawn = `BT /F1 1 Tf 10 760 Td ${lines.map((l, i) => `${i ? '0 -1 Td ' : ''}(${escapePdf(l)}) Tj`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    `<< /Length ${Buffer.byteLength(drawn, 'latin1')} >>\nstream\n${drawn}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const kids: string[] = [];
  for (let n = 0; n < pages; n++) {
    kids.push(`${objects.length + 1} 0 R`);
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>');
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`;
  return pdfOf(objects);
}

/** A DOCX whose document.xml is `xml` (deflated: repetitive XML zips a thousand to one). */
export async function docxOfXml(xml: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', RELS);
  zip.file('word/document.xml', xml);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}
