// A Colloquy server as a real child process (`colloquy serve`), for tests that need several
// nodes or a crash (SIGKILL) — things a server inside the test process cannot show.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { compiledCli } from './compiled.js';
import { ADMIN_TOKEN } from './server.js';
import { Client } from './client.js';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

export interface NodeProcess {
  url: string;
  client: Client;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit code */
  stop(): Promise<number | null>;
  /** SIGKILL at once */
  kill(): Promise<void>;
}

export async function startNode(env: Record<string, string>): Promise<NodeProcess> {
  // The database is the caller's choice alone: a DATABASE_URL inherited from the test run (set for
  // the PostgreSQL half) made every "SQLite" node a PostgreSQL one, on the run's base database.
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, [compiledCli(), 'serve'], {
    cwd: ROOT,
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      COLLOQUY_DEMO: '0',
      COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
      COLLOQUY_ALLOW_PRIVATE_NETWORK: '1',
      COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
      // Nodes on one database must share the server key (secrets at rest); without it each would
      // make a key file of its own in the data directory.
      COLLOQUY_SECRET_KEY: 'colloquy test nodes share this secret key',
      LOG_LEVEL: 'warn',
      // the built-in model only where a test asks for it (server.ts)
      COLLOQUY_BUILTIN_MODEL: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start within 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`node exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    client: new Client(url),
    child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
