// The analytics page's script (ui/analytics/app.ts with Chart.js and dagre) bundled by esbuild into
// one minified file, built on first request and kept in memory, as the widget is
// (channels/web/widget-bundle.ts): the served file follows the source without a build step, and
// the page loads one script from 'self', as the console's CSP wants.
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ANALYTICS_ENTRY = fileURLToPath(new URL('../../ui/analytics/app.ts', import.meta.url));

let pending: Promise<{ code: string; etag: string }> | null = null;

export function analyticsBundle(): Promise<{ code: string; etag: string }> {
  pending ??= buildPage().catch((error: unknown) => {
    pending = null; // a failed build is tried again on the next request
    throw error;
  });
  return pending;
}

async function buildPage() {
  const result = await build({
    entryPoints: [ANALYTICS_ENTRY],
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
