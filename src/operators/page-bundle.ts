// The console page's script: ui/console/console.js and what it imports (the console's modules,
// and the widget's markdown, so an operator's text is shown exactly as the visitor sees it) as one
// esbuild bundle made on first request and kept in memory. ES module output: the page loads it
// with <script type="module"> from 'self', as the console's CSP wants.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const CONSOLE_ENTRY = fileURLToPath(new URL('../../ui/console/console.js', import.meta.url));

let pending: Promise<Buffer> | null = null;

export function consoleBundle(): Promise<Buffer> {
  pending ??= build({ entryPoints: [CONSOLE_ENTRY], bundle: true, minify: true, format: 'esm', target: 'es2020', platform: 'browser', legalComments: 'none', write: false, logLevel: 'silent' }).then(
    (result) => Buffer.from(result.outputFiles[0]!.contents),
    (error: unknown) => {
      pending = null; // a failed build is tried again on the next request
      throw error;
    },
  );
  return pending;
}
