// HTML reduced to its readable text (knowledge.md "HTML"): html-to-text, a maintained converter on
// htmlparser2 (a forgiving, streaming parser that never throws on broken markup). Scripts, styles,
// navigation, forms and images go; headings come out as Markdown `#` lines so that the passage
// cutter (passages.ts) keeps them as the titles of the passages under them.
import { compile, type FormatCallback, type SelectorDefinition } from 'html-to-text';

/** Deeper nodes are not read: a page nested 100,000 levels deep is an attack, not a document. */
const MAX_DEPTH = 256;
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const SKIPPED = ['script', 'style', 'noscript', 'template', 'nav', 'form', 'button', 'select', 'svg', 'iframe', 'object', 'img', 'picture', 'video', 'audio', 'canvas', 'head'];

/** `# text` as a block of its own. */
const markdownHeading: FormatCallback = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral('# ');
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

const selectors: SelectorDefinition[] = [
  ...SKIPPED.map((selector) => ({ selector, format: 'skip' })),
  ...HEADINGS.map((selector) => ({ selector, format: 'markdownHeading' })),
  // link targets are not text a reader sees
  { selector: 'a', options: { ignoreHref: true } },
  { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
];

const convertPage = compile({
  wordwrap: false,
  selectors,
  formatters: { markdownHeading },
  baseElements: { selectors: ['body'], returnDomByDefault: true },
  // the source limit (10 MiB) is checked before; the converter must not cut silently below it
  limits: { maxDepth: MAX_DEPTH, maxInputLength: undefined },
});

export const htmlToMarkdown = (html: string): string => convertPage(html);
