// Compiles src/ to plain JavaScript in dist/ (one .js per .ts, same folders), so that production
// (`npm start`, `npx colloquy`) runs compiled code instead of transpiling on the fly with tsx.
// Files keep their depth below the project root, so paths made from import.meta.url (ui/,
// assets/) resolve the same from dist/ as from src/. esbuild only strips types: `npx tsc
// --noEmit` (npm test) is what checks them. Tests and scripts may keep running src/ through tsx.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');

/** src/'s TypeScript files that make the program (tests left out), relative to src/. */
function sources() {
  return fs.readdirSync(SRC, { recursive: true }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
}

export async function compile() {
  const files = sources();
  await build({
    entryPoints: files.map((file) => path.join(SRC, file)),
    outdir: DIST,
    outbase: SRC,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // linked maps: stack traces can be mapped back with NODE_OPTIONS=--enable-source-maps
    sourcemap: true,
    logLevel: 'warning',
  });
  // A file deleted from src/ must not live on in dist/ (the rest is overwritten in place, so a
  // process starting from dist/ meanwhile never finds it empty).
  const wanted = new Set(files.map((file) => file.replace(/\.ts$/, '.js')));
  for (const file of fs.readdirSync(DIST, { recursive: true })) {
    const js = file.replace(/\.map$/, '');
    if (js.endsWith('.js') && !wanted.has(js)) fs.rmSync(path.join(DIST, file));
  }
  return DIST;
}

/** True when dist/ was compiled after the last change to any source file. */
export function compiledIsCurrent() {
  let builtAt;
  try {
    builtAt = fs.statSync(path.join(DIST, 'cli.js')).mtimeMs;
  } catch {
    return false;
  }
  return sources().every((file) => fs.statSync(path.join(SRC, file)).mtimeMs <= builtAt);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const started = performance.now();
  const dist = await compile();
  console.log(`compiled src/ to ${path.relative(process.cwd(), dist) || dist} in ${Math.round(performance.now() - started)} ms`);
}
