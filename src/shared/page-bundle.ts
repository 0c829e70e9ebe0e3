// A console page's script (a TypeScript entry under ui/) bundled by esbuild into one minified
// file, built on first request and kept in memory, as the widget is (channels/web/widget-bundle.ts):
// the served file follows the source without a build step, and the page loads one script from
// 'self', as the console's CSP wants. Used by the analytics, knowledge and broadcasts pages.
import crypto from 'node:crypto';
import { build } from 'esbuild';

export interface PageBundle {
  code: string;
  etag: string;
}

/** The bundle of `entry`, built once (a failed build is tried again on the next call). */
export function pageBundle(entry: string): () => Promise<PageBundle> {
  let pending: Promise<PageBundle> | null = null;
  return () => {
    pending ??= bundle(entry).catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

async function bundle(entry: string): Promise<PageBundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  return { code, etag: `"${crypto.createHash('sha256').update(code).digest('base64url').slice(0, 16)}"` };
}
