// The command line as users run it: `npm start` and `npx colloquy` run the compiled program in
// dist/ (bin/build.js). Tests that spawn the CLI (or a server node) run it too: through tsx, each
// child spent ~1 s more CPU transpiling and resolving its modules, and the suite is CPU-bound
// (docs/performance.md "npm test time"). The build is made once per test process, on first use;
// builds from several test processes at once are safe (bin/build.js swaps the link in one rename
// and skips the work when dist is already current).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

let built = false;

/** dist/cli.js, built from the sources as they are now. */
export function compiledCli(): string {
  if (!built) {
    execFileSync(process.execPath, [path.join(ROOT, 'bin', 'build.js')], { cwd: ROOT, stdio: 'pipe' });
    built = true;
  }
  return path.join(ROOT, 'dist', 'cli.js');
}
