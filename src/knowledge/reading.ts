// Files as passages (knowledge.md "Sources"): PDF through unpdf (pdf.js built for servers, no
// canvas), DOCX through mammoth (to HTML, so Word headings title the passages like HTML ones).
// Both parse untrusted binary formats and take CPU: this runs on the indexing thread only
// (indexer.ts), under its heap cap and time bound, which also bound a zip bomb in a DOCX.
import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import { htmlToMarkdown } from './html.js';
import { cutMarkdown, DocumentError, passagesOf, type DocumentInput, type Passage } from './passages.js';

export { DocumentError };

/** A document as sent: text kinds (passages.ts) or the bytes of an uploaded or fetched file. */
export type ReadableInput = DocumentInput | { kind: 'pdf'; data: Uint8Array } | { kind: 'docx'; data: Uint8Array };

export async function readPassages(input: ReadableInput): Promise<Passage[]> {
  if (input.kind === 'pdf') return cutFile(await pdfText(input.data), 'the PDF has no text layer (a scan needs OCR first)');
  if (input.kind === 'docx') return cutFile(htmlToMarkdown(await docxHtml(input.data)), 'the DOCX has no text');
  return passagesOf(input);
}

function cutFile(text: string, whenEmpty: string): Passage[] {
  const passages = cutMarkdown(text);
  if (passages.length === 0) throw new DocumentError(whenEmpty);
  return passages;
}

async function pdfText(data: Uint8Array): Promise<string> {
  let pages: string[];
  try {
    // verbosity 0: pdf.js would print its repair warnings on the server's output
    const pdf = await getDocumentProxy(data, { verbosity: 0, isEvalSupported: false });
    pages = (await extractText(pdf, { mergePages: false })).text;
  } catch (error) {
    throw new DocumentError(`the file is not a readable PDF (${(error as Error).message ?? 'unknown error'})`);
  }
  // each page a paragraph of its own: a passage never runs on from one page into a heading-less other
  return pages.map((page) => page.trim()).filter((page) => page !== '').join('\n\n');
}

async function docxHtml(data: Uint8Array): Promise<string> {
  try {
    return (await mammoth.convertToHtml({ buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength) })).value;
  } catch (error) {
    throw new DocumentError(`the file is not a readable DOCX (${(error as Error).message ?? 'unknown error'})`);
  }
}
