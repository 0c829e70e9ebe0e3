// The widget script served at /widget.js: ui/widget bundled by esbuild into one minified ES2019
// file, built on first request and kept in memory. Building at run time (about 50 ms) keeps the
// served file in step with the source without a build step before `npm start`.
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'esbuild';

export interface WidgetBundle {
  code: string;
  etag: string;
  /** gzip-compressed size in bytes, as a browser downloads it from a compressing proxy */
  gzipBytes: number;
}

export const WIDGET_ENTRY = fileURLToPath(new URL('../../../ui/widget/index.ts', import.meta.url));

let pending: Promise<WidgetBundle> | null = null;

export function widgetBundle(): Promise<WidgetBundle> {
  pending ??= buildWidget().catch((error: unknown) => {
    pending = null; // a failed build is tried again on the next request
    throw error;
  });
  return pending;
}

async function buildWidget(): Promise<WidgetBundle> {
  const result = await build({
    entryPoints: [WIDGET_ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2019',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  const hash = crypto.createHash('sha256').update(code).digest('base64url').slice(0, 16);
  return { code, etag: `"${hash}"`, gzipBytes: zlib.gzipSync(code, { level: 9 }).length };
}
