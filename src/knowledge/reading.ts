// Files as passages (knowledge.md "Sources"): PDF through unpdf (pdf.js built for servers, no
// canvas), DOCX through mammoth (to HTML, so Word headings title the passages like HTML ones).
// Both parse untrusted binary formats and take CPU: this runs on the indexing thread only
// (indexer.ts), under its heap cap and time bound. What a file expands to is counted while it is
// read (document-limits.ts): a DOCX's unzipped bytes before mammoth sees it (zip-size.ts), a PDF's
// pages before any is read and its text a page at a time.
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import { DOCUMENT_LIMITS, DocumentTooLarge, overText } from './document-limits.js';
import { htmlToMarkdown } from './html.js';
import { cutMarkdown, DocumentError, passagesOf, type DocumentInput, type Passage } from './passages.js';
import { checkUnzippedSize } from './zip-size.js';

export { DocumentError };

/** A document as sent: text kinds (passages.ts) or the bytes of an uploaded or fetched file. */
export type ReadableInput = DocumentInput | { kind: 'pdf'; data: Uint8Array } | { kind: 'docx'; data: Uint8Array };

export async function readPassages(input: ReadableInput): Promise<Passage[]> {
  if (input.kind === 'pdf') return cutFile(await pdfText(input.data), 'the PDF has no text layer (a scan needs OCR first)');
  if (input.kind === 'docx') return cutFile(docxText(await docxHtml(input.data)), 'the DOCX has no text');
  return passagesOf(input);
}

function cutFile(text: string, whenEmpty: string): Passage[] {
  const passages = cutMarkdown(text);
  if (passages.length === 0) throw new DocumentError(whenEmpty);
  return passages;
}

async function pdfText(data: Uint8Array): Promise<string> {
  const pages: string[] = [];
  let chars = 0;
  try {
    // verbosity 0: pdf.js would print its repair warnings on the server's output
    const pdf = await getDocumentProxy(data, { verbosity: 0, isEvalSupported: false });
    if (pdf.numPages > DOCUMENT_LIMITS.pdfPages) throw new DocumentTooLarge('KnowledgeSourcePages', DOCUMENT_LIMITS.pdfPages, 'pages');
    // a page at a time (unpdf's extractText reads them all at once): 6,500 pages may share one
    // content stream, so the text is counted as it comes and reading stops at the cap
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .trim();
      chars += text.length;
      if (chars > DOCUMENT_LIMITS.textChars) throw overText();
      if (text !== '') pages.push(text);
    }
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError(`the file is not a readable PDF (${(error as Error).message ?? 'unknown error'})`);
  }
  // each page a paragraph of its own: a passage never runs on from one page into a heading-less other
  return pages.join('\n\n');
}

function docxText(html: string): string {
  const text = htmlToMarkdown(html);
  if (text.length > DOCUMENT_LIMITS.textChars) throw overText();
  return text;
}

async function docxHtml(data: Uint8Array): Promise<string> {
  checkUnzippedSize(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  try {
    return (await mammoth.convertToHtml({ buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength) })).value;
  } catch (error) {
    throw new DocumentError(`the file is not a readable DOCX (${(error as Error).message ?? 'unknown error'})`);
  }
}
