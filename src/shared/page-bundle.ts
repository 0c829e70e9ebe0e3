// A console page's script (ui/<page>/app.ts) bundled by esbuild into one minified file, built on
// first request and kept in memory, as the widget is (channels/web/widget-bundle.ts): the served
// file follows the source without a build step, and the page loads one script from 'self', as
// the console's CSP wants.
import crypto from 'node:crypto';
import { build } from 'esbuild';

export type PageBundle = () => Promise<{ code: string; etag: string }>;

export function pageBundle(entry: string): PageBundle {
  let pending: Promise<{ code: string; etag: string }> | null = null;
  return () => {
    pending ??= buildPage(entry).catch((error: unknown) => {
      pending = null; // a failed build is tried again on the next request
      throw error;
    });
    return pending;
  };
}

async function buildPage(entry: string) {
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
