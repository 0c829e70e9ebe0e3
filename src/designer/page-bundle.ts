// The designer page's script (ui/designer/main.tsx, React and React Flow) bundled by esbuild on
// first request and kept in memory, as the analytics page is (analytics/page-bundle.ts). Unlike
// that page it is split: the entry holds the shell (bot picker, outline, forms, save, preview)
// and the heavy parts (the flow canvas, versions and diff) are chunks the page imports when it
// first shows them, so the first paint does not wait for the graph library.
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const UI_DIR = fileURLToPath(new URL('../../ui/designer/', import.meta.url));
export const DESIGNER_ENTRY = path.join(UI_DIR, 'main.tsx');

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
