// Issue 35 finding 7: `prestart` compiled src/ into dist/ in place, so two `npm start` at once in
// one install (two nodes on a machine, a supervisor restarting workers) could load a half-written
// dist/ and die (`SyntaxError: … does not provide an export named …`). bin/build.js now compiles
// into a folder of its own and swaps the `dist` link to it in one rename. Here, in a copy of the
// project (its own dist, the same node_modules), two builds and starts run at once, as `npm start`
// runs them, then a third start while a forced build is under way: every server answers /health.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliEnv, freePort, PROJECT_ROOT } from '../support/cli.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';

/** What a start needs: the sources, the pages and assets they read, the build script. */
function copyProject(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-build-'));
  // dereference: from the compiled tests' tree (bin/build-tests.js) these entries are links
  for (const entry of ['src', 'ui', 'assets', 'bin', 'package.json']) fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(copy, entry), { recursive: true, dereference: true });
  fs.symlinkSync(fs.realpathSync(path.join(PROJECT_ROOT, 'node_modules')), path.join(copy, 'node_modules'));
  return copy;
}

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start` without npm: the build (package.json's prestart), then the server from dist. */
async function start(copy: string, database: TestDatabase, build = 'node bin/build.js && '): Promise<Started> {
  const port = await freePort();
  const env = cliEnv(database, { PORT: String(port), HOST: '127.0.0.1', COLLOQUY_DEMO: '0' });
  const child = spawn('sh', ['-c', `${build}exec node dist/cli.js serve`], { cwd: copy, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, port, output: () => output, exited };
}

/** /health's status once the server answers, or the server's output if it ended first. */
async function health(server: Started): Promise<number | string> {
  let ended = false;
  void server.exited.then(() => (ended = true));
  for (let i = 0; i < 600; i++) {
    if (ended) return `exited: ${server.output()}`;
    try {
      return (await fetch(`http://127.0.0.1:${server.port}/health`)).status;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return `no answer: ${server.output()}`;
}

const stop = async (server: Started) => {
  try {
    process.kill(-server.child.pid!, 'SIGTERM');
  } catch {
    // already ended
  }
  await server.exited;
};

for (const kind of databaseKinds()) {
  describe(`two npm start at once (${kind})`, () => {
    let copy: string;
    const databases: TestDatabase[] = [];
    const servers: Started[] = [];
    before(() => {
      copy = copyProject();
    });
    after(async () => {
      for (const server of servers) await stop(server);
      for (const database of databases) await database.drop();
      fs.rmSync(copy, { recursive: true, force: true });
    });
    const database = async () => {
      const made = await createTestDatabase(kind);
      databases.push(made);
      return made;
    };

    test('two builds and starts at once in a fresh install: both servers answer /health', async () => {
      const pair = await Promise.all([start(copy, await database()), start(copy, await database())]);
      servers.push(...pair);
      assert.deepEqual(await Promise.all(pair.map(health)), [200, 200]);
      const link = fs.lstatSync(path.join(copy, 'dist'));
      assert.equal(link.isSymbolicLink(), true);
      assert.match(fs.readlinkSync(path.join(copy, 'dist')), /^dist\.\w+$/);
    });

    test('a start while a forced build swaps dist: the server answers; an unchanged dist is not rebuilt', async () => {
      const before = fs.readlinkSync(path.join(copy, 'dist'));
      // the files the running servers loaded, and load later (threads, lazy imports)
      const inUse = fs.realpathSync(path.join(copy, 'dist', 'cli.js'));
      const writtenAt = fs.statSync(inUse).mtimeMs;
      const forced = spawn(process.execPath, ['bin/build.js', '--force'], { cwd: copy, stdio: 'ignore' });
      const built = new Promise<number | null>((resolve) => forced.on('close', resolve));
      const server = await start(copy, await database());
      servers.push(server);
      assert.equal(await health(server), 200);
      assert.equal(await built, 0);
      assert.notEqual(fs.readlinkSync(path.join(copy, 'dist')), before);
      assert.equal(fs.statSync(inUse).mtimeMs, writtenAt, 'a build never writes over the build servers run from');
      const again = await new Promise<string>((resolve) => {
        const run = spawn(process.execPath, ['bin/build.js'], { cwd: copy, stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        run.stdout.on('data', (chunk) => (out += chunk));
        run.on('close', () => resolve(out));
      });
      assert.match(again, /^dist is current/);
    });
  });
}
