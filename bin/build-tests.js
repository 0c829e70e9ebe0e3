// `npm test` runs the tests compiled, as `npm start` runs the server (bin/build.js), instead of
// through tsx. Each test file is a process of its own, and loading the server through a loader
// cost ~2 s of CPU per file where compiled JavaScript takes ~1 s: Node 20 runs loader hooks on
// another thread, one round trip per module, ~1,000 modules (docs/performance.md "npm test
// time"). On 2 cores the suite is CPU-bound, so that was minutes of the run.
//
// The tests find files by paths relative to their own (`new URL('../../assets/…', import.meta.url)`,
// the sources they read, fixtures, the server's pages). So the compiled tree is a copy of the
// project's root at the same depth: `.test-build/src` and `.test-build/test` hold every file of
// src/ and test/ (the .ts sources too: some tests read them) with each .ts compiled beside it,
// and every other entry of the root is a link to the real one. esbuild strips types only, as tsx
// does; `npm run typecheck` (part of `npm test`) checks them.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TEST_BUILD = path.join(ROOT, '.test-build');
/** Root entries that are not linked: copied and compiled (src, test), or never read by a test. */
const NOT_LINKED = new Set(['src', 'test', '.git', '.test-build']);

const started = performance.now();
fs.rmSync(TEST_BUILD, { recursive: true, force: true });
fs.mkdirSync(TEST_BUILD);
for (const top of ['src', 'test']) fs.cpSync(path.join(ROOT, top), path.join(TEST_BUILD, top), { recursive: true });
const sources = ['src', 'test'].flatMap((top) =>
  fs
    .readdirSync(path.join(TEST_BUILD, top), { recursive: true })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(TEST_BUILD, top, file)),
);
await build({
  entryPoints: sources,
  outdir: TEST_BUILD,
  outbase: TEST_BUILD,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // failures point at the TypeScript lines (npm test runs node with --enable-source-maps)
  sourcemap: true,
  logLevel: 'warning',
});
// Screenshots land in the real test-output/ (a link to a folder that does not exist yet could not be written through).
fs.mkdirSync(path.join(ROOT, 'test-output'), { recursive: true });
for (const name of fs.readdirSync(ROOT)) {
  if (NOT_LINKED.has(name) || /^dist\./.test(name)) continue;
  fs.symlinkSync(path.join('..', name), path.join(TEST_BUILD, name));
}
// dist/ is made by the first test that runs the CLI (test/support/compiled.ts): link it even if it is not there yet
if (!fs.readdirSync(TEST_BUILD).includes('dist')) fs.symlinkSync(path.join('..', 'dist'), path.join(TEST_BUILD, 'dist'));
// Tests of page code import ui/, which the server bundles for browsers at run time and which is
// therefore not compiled here: those tests are bundled, their page modules inlined.
const pageTests = sources.filter((file) => file.endsWith('.test.ts') && /from '(\.\.\/)+ui\//.test(fs.readFileSync(file, 'utf8')));
await build({
  entryPoints: pageTests,
  outdir: TEST_BUILD,
  outbase: TEST_BUILD,
  bundle: true,
  packages: 'external',
  allowOverwrite: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`compiled ${sources.length} files of src/ and test/ to .test-build/ (${pageTests.length} tests of pages bundled) in ${Math.round(performance.now() - started)} ms`);
