// Compiles src/ to plain JavaScript (one .js per .ts, same folders), so that production
// (`npm start`, `npx colloquy`) runs compiled code instead of transpiling on the fly with tsx.
// esbuild only strips types: `npx tsc --noEmit` (npm test) is what checks them. Tests and scripts
// may keep running src/ through tsx.
//
// Two `npm start` at once in one install (two nodes on a machine, a supervisor restarting
// workers) must never load a half-written build (issue 35, finding 7: one died with "does not
// provide an export named …"). So a build never writes where a server may be reading:
// - it compiles into a folder of its own, `dist.<random>/`, beside src/ (files keep their depth
//   below the project root, so paths made from import.meta.url, ui/ and assets/, resolve the same
//   from there as from src/), then points the symlink `dist` at it with one rename, which is
//   atomic: a start sees the old build or the new one, whole. Node loads `dist/cli.js` by its
//   real path, so a server keeps to the folder it started in, threads and later imports included;
// - it skips compiling when `dist` already holds the build of these sources (a hash of them and
//   of this script, in `.stamp`); `--force` compiles anyway;
// - an older folder is removed only when no server that started from it is alive (each writes
//   its pid into `.users/`, src/shared/build-users.ts) and nothing changed it or the link for a
//   minute (time for a start that had just read the old link to write its pid).
// An install from before this layout has a real `dist/` folder: it is moved aside once
// (`dist.legacy-…`), and a start in that instant finds no dist.
import { build } from 'esbuild';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const LINK = path.join(ROOT, 'dist');
const STAMP = '.stamp';
export const USERS = '.users';
const GRACE_MS = 60_000;

/** src/'s TypeScript files that make the program (tests left out), relative to src/. */
function sources() {
  return fs
    .readdirSync(SRC, { recursive: true })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
}

/** What a build of these sources is: their names and contents, and this script's. */
function stampOf(files) {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url)));
  for (const file of files) hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(SRC, file)));
  return hash.digest('hex');
}

/** The folder `dist` points at, or null. */
function currentBuild() {
  try {
    return fs.lstatSync(LINK).isSymbolicLink() ? path.join(ROOT, fs.readlinkSync(LINK)) : null;
  } catch {
    return null;
  }
}

const stampIn = (dir) => {
  try {
    return fs.readFileSync(path.join(dir, STAMP), 'utf8');
  } catch {
    return null;
  }
};

/** True when `dist` holds the build of the sources as they are now. */
export function compiledIsCurrent() {
  const current = currentBuild();
  return current !== null && stampIn(current) === stampOf(sources());
}

function markUser(dir, pid) {
  fs.mkdirSync(path.join(dir, USERS), { recursive: true });
  fs.writeFileSync(path.join(dir, USERS, String(pid)), '');
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Removes the pids of servers no longer running from `dir`'s users; how many still run. */
function forgetStopped(dir) {
  const users = path.join(dir, USERS);
  let running = 0;
  for (const pid of fs.existsSync(users) ? fs.readdirSync(users) : []) {
    if (alive(Number(pid))) running++;
    else fs.rmSync(path.join(users, pid), { force: true });
  }
  return running;
}

/** Points `dist` at `dir` in one rename (a real dist/ of the old layout is moved aside first). */
function swapIn(dir) {
  const temporary = path.join(ROOT, `dist.link-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  fs.symlinkSync(path.basename(dir), temporary);
  try {
    const stat = fs.lstatSync(LINK);
    if (stat.isDirectory()) fs.renameSync(LINK, path.join(ROOT, `dist.legacy-${crypto.randomBytes(4).toString('hex')}`));
  } catch (error) {
    if (error.code !== 'ENOENT') throw error; // ENOENT: none yet, or another build moved it
  }
  fs.renameSync(temporary, LINK);
}

/** Removes the builds (and links left by a stopped build) that nothing can be using any more. */
function removeUnused() {
  const current = currentBuild();
  const now = Date.now();
  const recent = (file) => now - fs.lstatSync(file).mtimeMs < GRACE_MS;
  try {
    if (recent(LINK)) return; // a start may have read the link before its last change
  } catch {
    return;
  }
  for (const name of fs.readdirSync(ROOT)) {
    const dir = path.join(ROOT, name);
    if (!/^dist\.[\w-]+$/.test(name)) continue;
    try {
      if (dir === current) {
        forgetStopped(dir);
        continue;
      }
      if (recent(dir)) continue;
      const stat = fs.lstatSync(dir);
      if (stat.isSymbolicLink()) {
        fs.rmSync(dir);
        continue;
      }
      if (forgetStopped(dir) > 0) continue;
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // another build removed it first, or it is not ours to remove: left for the next build
    }
  }
}

/** Compiles into a new folder and swaps it in, unless `dist` is current (and `force` is not set). */
export async function compile({ force = false } = {}) {
  const files = sources();
  const stamp = stampOf(files);
  const current = currentBuild();
  if (!force && current !== null && stampIn(current) === stamp) {
    removeUnused();
    return { dir: current, compiled: false };
  }
  const dir = fs.mkdtempSync(path.join(ROOT, 'dist.'));
  fs.chmodSync(dir, 0o755); // as dist/ was: readable by a server running as another user
  // this build uses it: a concurrent build's clean-up leaves it alone
  markUser(dir, process.pid);
  await build({
    entryPoints: files.map((file) => path.join(SRC, file)),
    outdir: dir,
    outbase: SRC,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // linked maps: stack traces can be mapped back with NODE_OPTIONS=--enable-source-maps
    sourcemap: true,
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(dir, STAMP), stamp);
  swapIn(dir);
  fs.rmSync(path.join(dir, USERS, String(process.pid)));
  removeUnused();
  return { dir, compiled: true };
}

// run as a program (also through a link to this file, as the compiled tests' tree has one), not imported
if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(path.resolve(process.argv[1]))) {
  const started = performance.now();
  const { dir, compiled } = await compile({ force: process.argv.includes('--force') });
  const name = path.relative(ROOT, dir);
  if (compiled) console.log(`compiled src/ to ${name} in ${Math.round(performance.now() - started)} ms (dist → ${name})`);
  else console.log(`dist is current with src/ (${name}): not compiled (--force compiles anyway)`);
}
