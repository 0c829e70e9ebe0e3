// The designer page's script (ui/designer/main.tsx, React and React Flow) bundled on first request
// and kept in memory, as every page is (shared/page-bundle.ts). Unlike the other pages it is
// split: the entry holds the shell (bot picker, outline, forms, save, preview)
// and the heavy parts (the flow canvas, the source editor, versions and diff) are chunks the page
// imports when it first shows them, so the first paint does not wait for the graph library and
// the code editor is loaded only by those who open it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { builtOnce, bundleFiles } from '../shared/page-bundle.js';

const UI_DIR = fileURLToPath(new URL('../../ui/designer/', import.meta.url));
export const DESIGNER_ENTRY = path.join(UI_DIR, 'main.tsx');

/**
 * Two modules of codemirror-json-schema replaced as they load. Its Markdown renderer starts shiki
 * on load (megabytes of grammars and a WebAssembly engine, which the console's CSP refuses) to
 * render schema descriptions that in the bot schema are plain sentences: they are shown escaped.
 * Its parser table pulls in YAML and JSON5 parsers (130 KB minified) for modes the designer does
 * not use: JSON only.
 */
const REPLACED: Record<string, string> = {
  'utils/markdown.js': `const map = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function renderMarkdown(text) { return String(text).replace(/[&<>"']/g, (c) => map[c]); }`,
  'parsers/index.js': `import { parseJSONDocumentState } from './json-parser';
export const getDefaultParser = () => parseJSONDocumentState;`,
};
const slimJsonSchema: Plugin = {
  name: 'slim-codemirror-json-schema',
  setup(build) {
    build.onLoad({ filter: /codemirror-json-schema[\\/]dist[\\/](utils[\\/]markdown|parsers[\\/]index)\.js$/ }, (args) => {
      const key = Object.keys(REPLACED).find((k) => args.path.replaceAll('\\', '/').endsWith(k))!;
      return { contents: REPLACED[key], resolveDir: path.dirname(args.path), loader: 'js' };
    });
  },
};

/** The bundle's files by name: main.js, main.css and the chunks main.js imports. */
export const designerBundle = builtOnce(() =>
  bundleFiles(DESIGNER_ENTRY, {
    splitting: true,
    format: 'esm',
    chunkNames: 'chunk-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    plugins: [slimJsonSchema],
  }),
);
