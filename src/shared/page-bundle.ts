// The one place that bundles a browser script with esbuild: every page of the console (each from its
// entry under ui/, each its own bundle), the widget and the /docs theme. A bundle is built on first
// request and kept in memory, so the served file follows the source without a build step before
// `npm start`, and a page loads its script from 'self', as the console's CSP wants. The house
// options (minified, no legal comments, browser platform, nothing written to disk) are set here
// once; a bundle changes only what is its own (module format, target, code splitting, JSX).
import crypto from 'node:crypto';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

/** What one bundle may set for itself; everything else is the house's. */
export type BundleOptions = Pick<BuildOptions, 'format' | 'target' | 'splitting' | 'chunkNames' | 'define' | 'jsx' | 'plugins'>;

export interface PageBundle {
  code: string;
  etag: string;
}

export interface BundledFile {
  body: string;
  type: string;
  etag: string;
}

const HOUSE: BuildOptions = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  platform: 'browser',
  legalComments: 'none',
  write: false,
  logLevel: 'silent',
  // nothing is written: the folder only names the files (entry, chunks, styles)
  outdir: '/bundle-out',
};

export const etagOf = (text: string): string => `"${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 16)}"`;

/** `make`'s answer, made on the first call and kept; a failed build is tried again on the next call. */
export function builtOnce<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= make().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

/** Every file of `entry`'s bundle by name: `<entry>.js`, and its chunks and stylesheet when it has them. */
export async function bundleFiles(entry: string, options: BundleOptions = {}): Promise<Map<string, BundledFile>> {
  const result = await build({ ...HOUSE, ...options, entryPoints: [entry] });
  const files = new Map<string, BundledFile>();
  for (const file of result.outputFiles ?? []) {
    const name = path.basename(file.path);
    const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    files.set(name, { body: file.text, type, etag: etagOf(file.text) });
  }
  return files;
}

/** `entry` bundled into one script (no chunks). */
export async function bundleScript(entry: string, options: BundleOptions = {}): Promise<PageBundle> {
  const files = await bundleFiles(entry, options);
  const script = files.get(`${path.basename(entry, path.extname(entry))}.js`)!;
  return { code: script.body, etag: script.etag };
}

/** The bundle of `entry`, built once (a failed build is tried again on the next call). */
export function pageBundle(entry: string, options: BundleOptions = {}): () => Promise<PageBundle> {
  return builtOnce(() => bundleScript(entry, options));
}
