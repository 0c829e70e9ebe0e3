// A document as passages (knowledge.md "Passages"): the text is cut at headings, then paragraphs,
// then sentences, into passages of at most MAX_PASSAGE_CHARS, each knowing the heading it stands
// under. HTML is first reduced to readable text by html-to-text (html.ts) with its headings kept
// as Markdown headings; an FAQ entry is one passage holding its question and its answer. Pure and
// CPU-bound: it runs on the indexing thread (indexer.ts), never on the thread serving requests.
// No regular expression meets the document: lines, blank lines and sentences are found by
// scanning and by Intl.Segmenter, so the cost is linear in the text whatever it holds.
import { DOCUMENT_LIMITS, DocumentError, overPassages } from './document-limits.js';
import { htmlToMarkdown } from './html.js';

export { DocumentError };

export const MAX_PASSAGE_CHARS = 1_500;
/** A heading longer than this is cut: it is a title, not content. */
export const MAX_HEADING_CHARS = 200;

export type DocumentInput = { kind: 'text'; text: string } | { kind: 'html'; html: string } | { kind: 'faq'; faq: Array<{ Question: string; Answer: string }> };

export interface Passage {
  heading: string;
  text: string;
}

export function passagesOf(input: DocumentInput): Passage[] {
  const passages = input.kind === 'faq' ? faqsOf(input.faq) : cutMarkdown(input.kind === 'html' ? htmlToMarkdown(input.html) : input.text);
  if (passages.length === 0) throw new DocumentError(input.kind === 'html' ? 'the page has no readable text' : 'the document has no text');
  return passages;
}

function faqsOf(faq: Array<{ Question: string; Answer: string }>): Passage[] {
  const out: Passage[] = [];
  for (const entry of faq) {
    out.push(...faqPassages(entry.Question, entry.Answer));
    if (out.length > DOCUMENT_LIMITS.sourcePassages) throw overPassages();
  }
  return out;
}

function faqPassages(question: string, answer: string): Passage[] {
  const q = oneLine(question);
  const a = answer.trim();
  if (q === '' || a === '') return [];
  // the question is the heading of its answer, and the passage's text holds both
  const [first, ...rest] = cutBody(a, MAX_PASSAGE_CHARS - q.length - 1);
  return [{ heading: cutHeading(q), text: `${q}\n${first}` }, ...rest.map((text) => ({ heading: cutHeading(q), text }))];
}

/**
 * Markdown (or plain text): ATX headings (`# Title`) open sections; each section is cut on its own.
 * Cutting stops past the passages a source may hold (10 MiB of one-line sections would be 1.7 M).
 */
export function cutMarkdown(document: string): Passage[] {
  const out: Passage[] = [];
  let heading = '';
  let body: string[] = [];
  const flush = () => {
    for (const text of cutBody(body.join('\n'), MAX_PASSAGE_CHARS)) out.push({ heading, text });
    body = [];
    if (out.length > DOCUMENT_LIMITS.sourcePassages) throw overPassages();
  };
  for (const line of linesOf(document)) {
    const title = headingOf(line);
    if (title === null) {
      body.push(line);
      continue;
    }
    flush();
    heading = cutHeading(title);
  }
  flush();
  return out;
}

/** Paragraphs packed into passages of at most `max` characters; a longer paragraph by sentences. */
function cutBody(body: string, max: number): string[] {
  const out: string[] = [];
  let current = '';
  const push = (piece: string) => {
    if (current !== '' && current.length + 2 + piece.length <= max) current = `${current}\n\n${piece}`;
    else {
      if (current !== '') out.push(current);
      current = piece;
    }
  };
  for (const paragraph of paragraphsOf(body)) {
    if (paragraph.length <= max) push(paragraph);
    else for (const piece of packSentences(paragraph, max)) push(piece);
  }
  if (current !== '') out.push(current);
  return out;
}

/** A long paragraph: whole sentences packed up to `max`; a sentence longer than that is cut between words. */
function packSentences(paragraph: string, max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const segment of sentencesOf(paragraph)) {
    for (const piece of segment.length <= max ? [segment] : cutBetweenWords(segment, max)) {
      if (current.length + piece.length <= max) current += piece;
      else {
        if (current.trim() !== '') out.push(current.trim());
        current = piece;
      }
    }
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

/**
 * The paragraph's sentences as Intl.Segmenter finds them, asked a window at a time: V8's segmenter
 * takes time quadratic in the length of the text it is given (one 500 KB paragraph: 3 s; 1.5 MB:
 * over the indexing thread's minute). The last sentence of a window may go on past it, so it is
 * segmented again at the start of the next window; a window holding a single unfinished sentence
 * is given up to its last space.
 */
function* sentencesOf(paragraph: string): Generator<string> {
  let start = 0;
  while (start < paragraph.length) {
    const end = Math.min(paragraph.length, start + SENTENCE_WINDOW);
    const window = paragraph.slice(start, end);
    const sentences = Array.from(sentenceSegmenter.segment(window), (s) => s.segment);
    if (end === paragraph.length) return yield* sentences;
    if (sentences.length > 1) {
      const last = sentences.pop()!;
      yield* sentences;
      start = end - last.length;
    } else {
      const space = window.lastIndexOf(' ');
      const cut = space > 0 ? space + 1 : window.length;
      yield window.slice(0, cut);
      start += cut;
    }
  }
}

function cutBetweenWords(text: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    // the last space within reach, looked for no further back than the piece's start (lastIndexOf
    // would search back to the text's start each time: quadratic in a text without spaces)
    let space = start + max;
    while (space > start && text[space] !== ' ') space--;
    const end = space > start ? space + 1 : start + max;
    out.push(text.slice(start, end));
    start = end;
  }
  out.push(text.slice(start));
  return out;
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/** Characters given to the segmenter at once: a few passages' worth, so its quadratic cost stays small. */
const SENTENCE_WINDOW = 4 * MAX_PASSAGE_CHARS;

function* linesOf(text: string): Generator<string> {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    yield line.endsWith('\r') ? line.slice(0, -1) : line;
    start = end + 1;
  }
}

/** Paragraphs: runs of non-blank lines, joined by spaces within (soft line breaks), trimmed. */
function paragraphsOf(body: string): string[] {
  const out: string[] = [];
  let lines: string[] = [];
  const flush = () => {
    const paragraph = lines.join(' ').trim();
    if (paragraph !== '') out.push(squeezeSpaces(paragraph));
    lines = [];
  };
  for (const line of linesOf(body)) {
    if (line.trim() === '') flush();
    else lines.push(line.trim());
  }
  flush();
  return out;
}

/** `# Title` … `###### Title` (Markdown ATX); null for any other line. */
function headingOf(line: string): string | null {
  const trimmed = line.trimStart();
  let level = 0;
  while (level < trimmed.length && trimmed[level] === '#') level++;
  if (level === 0 || level > 6 || (trimmed[level] !== ' ' && trimmed[level] !== '\t')) return null;
  let title = trimmed.slice(level).trim();
  while (title.endsWith('#')) title = title.slice(0, -1);
  return oneLine(title);
}

/** Each run of spaces, tabs and no-break spaces as one space: runs of text copied whole, not a character at a time. */
function squeezeSpaces(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i))) continue;
    let end = i + 1;
    while (end < text.length && isSpace(text.charCodeAt(end))) end++;
    if (end - i > 1 || text[i] !== ' ') {
      parts.push(text.slice(copied, i), ' ');
      copied = end;
    }
    i = end - 1;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0xa0;

const oneLine = (text: string): string => squeezeSpaces(text.split('\n').join(' ').split('\r').join(' ').trim());
const cutHeading = (title: string): string => (title.length <= MAX_HEADING_CHARS ? title : `${title.slice(0, MAX_HEADING_CHARS - 1)}…`);
