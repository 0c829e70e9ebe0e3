// Runs the real command line (dist/cli.js, built from src/ on first use: compiled.ts) as a child
// process, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { compiledCli } from './compiled.js';
import type { TestDatabase } from './databases.js';

export const PROJECT_ROOT = new URL('../../', import.meta.url).pathname;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The caller's environment without any Colloquy setting, plus `extra`; the built-in model is off
 * (loading it costs every run a second of CPU) unless `extra` turns it on.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('COLLOQUY_') || ['DATABASE_URL', 'PORT', 'HOST', 'NODE_TEST_CONTEXT'].includes(name)) continue;
    env[name] = value;
  }
  return { ...env, COLLOQUY_BUILTIN_MODEL: 'off', ...extra };
}

/** The environment of a CLI run on `database`: nothing of the caller's Colloquy settings leaks in. */
export function cliEnv(database: TestDatabase, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    COLLOQUY_DATA_DIR: database.dataDir,
    LOG_LEVEL: 'warn',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...extra,
  };
}

export function startCli(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [compiledCli(), ...args], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs the CLI to its end (killed after `timeoutMs`). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliResult> {
  return untilExit(startCli(args, env), args, timeoutMs);
}

/** What a started `colloquy args…` printed, once it ends (killed after `timeoutMs`). */
export function untilExit(child: ChildProcess, args: string[], timeoutMs: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`colloquy ${args.join(' ')} did not end in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a bash script and returns what it printed. */
export function runBash(script: string, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bash script did not end in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Resolves with everything printed so far once `output` matches `pattern`. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${timeoutMs} ms; got:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`the process ended (${code}) before printing ${pattern}:\n${output}`));
    });
  });
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
