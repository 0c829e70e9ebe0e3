// The designer page's script (ui/designer/main.tsx, React and React Flow) bundled by esbuild on
// first request and kept in memory, as the analytics page is (analytics/page-bundle.ts). Unlike
// that page it is split: the entry holds the shell (bot picker, outline, forms, save, preview)
// and the heavy parts (the flow canvas, the source editor, versions and diff) are chunks the page
// imports when it first shows them, so the first paint does not wait for the graph library and
// the code editor is loaded only by those who open it.
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

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

export interface DesignerFile {
  body: string;
  type: string;
  etag: string;
}

let pending: Promise<Map<string, DesignerFile>> | null = null;

/** The bundle's files by name: main.js, main.css and the chunks main.js imports. */
export function designerBundle(): Promise<Map<string, DesignerFile>> {
  pending ??= buildPage().catch((error: unknown) => {
    pending = null; // a failed build is tried again on the next request
    throw error;
  });
  return pending;
}

async function buildPage(): Promise<Map<string, DesignerFile>> {
  const result = await build({
    entryPoints: [DESIGNER_ENTRY],
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    outdir: '/designer-out',
    chunkNames: 'chunk-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    legalComments: 'none',
    plugins: [slimJsonSchema],
    write: false,
    logLevel: 'silent',
  });
  const files = new Map<string, DesignerFile>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    files.set(name, { body: file.text, type, etag: `"${crypto.createHash('sha256').update(file.text).digest('base64url').slice(0, 16)}"` });
  }
  return files;
}
