// The hostile inputs of issue 35, made by the bench itself (nothing is downloaded): YAML bot files
// that are wide, deep or long, a big JSON bot file, a DOCX whose 100 MB of XML deflates to a few
// hundred KB, a PDF whose 6,500 pages all draw one shared content stream, a 10 MiB page served
// from 127.0.0.1, and a text file with a NUL byte.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import JSZip from 'jszip';
import { docxFile } from '../test/support/knowledge-files.js';
import { filler } from './knowledge.js';
import { benchBot } from './setup.js';

/** A YAML mapping of `keys` distinct keys (short base-36 names, so 600,000 fit in the 5 MiB bot-file limit). */
export function yamlKeys(keys: number): string {
  const lines: string[] = [];
  for (let i = 0; i < keys; i++) lines.push(`${i.toString(36)}: 1`);
  return `${lines.join('\n')}\n`;
}

/** A YAML sequence of `bytes` bytes: `- a` lines. */
export const yamlList = (bytes: number): string => '- a\n'.repeat(Math.floor(bytes / 4));

/** `[[[[…` flow sequences nested `depth` deep, never closed. */
export const yamlBrackets = (depth: number): string => '['.repeat(depth);

/** A valid-looking JSON bot file of about `bytes` bytes: the bench bot with many interactions. */
export function bigJsonBot(bytes: number): string {
  const main = benchBot.behaviours[0];
  const interactions: unknown[] = [...main.interactions];
  let size = JSON.stringify(benchBot).length;
  for (let i = 0; size < bytes; i++) {
    const interaction = { name: `Step ${i}`, enableUserChat: true, actions: [{ type: 'text', text: `This is step ${i} of a very long bot, said in a long sentence to make it weigh.` }] };
    interactions.push(interaction);
    size += JSON.stringify(interaction).length + 1;
  }
  return JSON.stringify({ ...benchBot, behaviours: [{ ...main, interactions }] });
}

/**
 * A DOCX of `xmlBytes` of document XML, deflated: the same paragraph again and again, so the
 * upload is small and its text is not (the issue's was 338 KB holding 100 MB).
 */
export async function docxBomb(xmlBytes: number): Promise<Buffer> {
  const paragraph = 'The refund policy applies to every order shipped within the country and to parcels sent abroad. '.repeat(10);
  const stored = await docxFile(Array.from({ length: Math.ceil(xmlBytes / (paragraph.length + 40)) }, () => paragraph));
  const zip = await JSZip.loadAsync(stored);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A PDF of `pages` pages that all draw the one content stream (object 4): a few KB of text each. */
export function sharedStreamPdf(pages: number): Buffer {
  const lines = Array.from({ length: 40 }, (_, i) => `(Line ${i} of the shared page tells the reader about refunds, parcels and opening hours.) Tj`);
  const drawn = `BT /F1 10 Tf 40 760 Td ${lines.join(' 0 -14 Td ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(drawn, 'latin1')} >>\nstream\n${drawn}\nendstream`,
  ];
  const kids: string[] = [];
  for (let p = 0; p < pages; p++) {
    kids.push(`${objects.length + 1} 0 R`);
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>');
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  const parts = ['%PDF-1.4\n'];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    const text = `${i + 1} 0 obj\n${object}\nendobj\n`;
    parts.push(text);
    length += Buffer.byteLength(text, 'latin1');
  });
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A text file with a NUL byte in its middle (PostgreSQL text cannot hold one). */
export const nulText = (): Buffer => Buffer.from('Opening hours\n\nWe open at nine\u0000 and close at five.\n', 'utf8');

/** An HTTP server on 127.0.0.1 answering every GET with the same `bytes` of plain text. */
export async function pageServer(bytes: number): Promise<{ url: (i: number) => string; served: () => number; close: () => Promise<void> }> {
  const body = Buffer.from(filler(7, bytes), 'utf8');
  let served = 0;
  const server = http.createServer((_req, res) => {
    served++;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (i) => `http://127.0.0.1:${port}/page-${i}.txt`,
    served: () => served,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
