// Servers under test run as child processes (never in the load generator's process). Each child
// prints "listening on http://..." once ready; stop() sends SIGTERM and, after a grace period,
// SIGKILL. Every child still alive when the benchmark exits, fails or is interrupted is killed.
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  name: string;
  url: string;
  pid: number;
  /** milliseconds from spawning the process to its "listening" line */
  startupMs: number;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const proc of live) {
    try {
      proc.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

const cleanups: Array<() => Promise<void>> = [];

/**
 * Async clean-up (dropping the run's PostgreSQL database, ...) that must run however the benchmark
 * ends: on SIGINT/SIGTERM and at the deadline (after the children are killed, at most 15 s in
 * all). The normal and failing paths call runCleanups() themselves. Returns the unregister function.
 */
export function onCleanup(work: () => Promise<void>): () => void {
  cleanups.push(work);
  return () => {
    const at = cleanups.indexOf(work);
    if (at >= 0) cleanups.splice(at, 1);
  };
}

let cleaning: Promise<void> | null = null;
let signalled: string | null = null;

/** The signal that interrupted the benchmark, if one did (its failures after that are only the interruption). */
export function interruptedBy(): string | null {
  return signalled;
}

/**
 * Runs (and forgets) every registered clean-up, each one's failure reported, all bounded to 15 s.
 * Called while a run is already in progress (a signal during the normal clean-up), it waits for that one.
 */
export function runCleanups(): Promise<void> {
  if (cleaning) return cleaning;
  const work = cleanups.splice(0).reverse();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      process.stderr.write('bench: clean-up still running after 15 s, leaving it\n');
      resolve();
    }, 15_000);
  });
  const all = (async () => {
    for (const w of work) {
      await w().catch((error: unknown) => process.stderr.write(`bench: clean-up failed: ${(error as Error).message}\n`));
    }
  })();
  cleaning = Promise.race([all, bound]).finally(() => {
    clearTimeout(timer);
    cleaning = null;
  });
  return cleaning;
}

/** Installed once: no child outlives the benchmark, and the whole run has a hard deadline. */
export function installCleanup(deadlineMs: number): void {
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping the servers\n`);
      signalled = signal;
      killAllChildren();
      void runCleanups().finally(() => process.exit(130));
    });
  }
  setTimeout(() => {
    process.stderr.write(`bench: still running after ${Math.round(deadlineMs / 1000)} s, giving up\n`);
    killAllChildren();
    void runCleanups().finally(() => process.exit(2));
  }, deadlineMs).unref();
}

export interface StartChildOptions {
  name: string;
  /** arguments after `node` (flags, script, script arguments) */
  args: string[];
  env: Record<string, string>;
  cwd: string;
  startTimeoutMs?: number;
}

/** Lines of output forwarded per child before the rest is only counted (a flood must not drown the run). */
const FORWARD_LIMIT = 20;

export function startChild(options: StartChildOptions): Promise<Child> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The children get exactly the configuration the benchmark chooses.
  for (const key of ['DATABASE_URL', 'PORT', 'HOST', 'NODE_OPTIONS', 'COLLOQUY_PUBLIC_URL']) delete env[key];
  Object.assign(env, options.env);
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, options.args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  exited.then(() => live.delete(proc));

  const tail: string[] = [];
  let forwarded = 0;
  let suppressed = 0;
  const onLine = (line: string, isListening: (url: string) => void) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
    const match = /listening on (http:\/\/\S+)/.exec(line);
    if (match) return isListening(match[1]);
    if (/^colloquy: (opening|applied migration|SIGTERM received)/.test(line)) return;
    if (forwarded < FORWARD_LIMIT) {
      forwarded++;
      process.stderr.write(`[${options.name}] ${line}\n`);
    } else suppressed++;
  };

  return new Promise<Child>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${options.name} did not start within ${options.startTimeoutMs ?? 60_000} ms:\n${tail.join('\n')}`));
    }, options.startTimeoutMs ?? 60_000);
    const listening = (url: string) => {
      if (ready) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        name: options.name,
        url: url.replace(/\/+$/, ''),
        pid: proc.pid!,
        startupMs: performance.now() - spawnedAt,
        stop: async () => {
          if (proc.exitCode !== null || proc.signalCode !== null) return;
          proc.kill('SIGTERM');
          const killer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
          await exited;
          clearTimeout(killer);
          if (suppressed > 0) process.stderr.write(`[${options.name}] (${suppressed} more output lines not shown)\n`);
        },
      });
    };
    for (const stream of [proc.stdout!, proc.stderr!]) {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          onLine(buffered.slice(0, newline), listening);
          buffered = buffered.slice(newline + 1);
        }
      });
    }
    proc.once('exit', (code, signal) => {
      if (ready) return;
      clearTimeout(timer);
      reject(new Error(`${options.name} exited before listening (code ${code}, signal ${signal}):\n${tail.join('\n')}`));
    });
  });
}
