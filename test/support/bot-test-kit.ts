// Helpers for the tests of `colloquy test`, `dev`, `push` and `pull`: a folder of files written
// for one test, and the CLI run in it as a user runs it (`npx colloquy`: a child process, cwd = that folder).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, PROJECT_ROOT, untilExit, type CliResult } from './cli.js';
import { compiledCli } from './compiled.js';

export { cleanEnv };

/** `npx colloquy`: bin/colloquy.js runs dist/ when it is current (spawnColloquy builds it first), else src/ through tsx. */
export const CLI = path.join(PROJECT_ROOT, 'bin', 'colloquy.js');

/** A new temporary folder with `files` (relative path → content) written in it. */
export function folderWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-bot-tests-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

export function spawnColloquy(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; preload?: string[] } = {}): ChildProcess {
  const preload = (options.preload ?? []).flatMap((p) => ['--import', p]);
  compiledCli();
  return spawn(process.execPath, [...preload, CLI, ...args], { cwd: options.cwd ?? PROJECT_ROOT, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs `colloquy args…` to its end. */
export function colloquy(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; preload?: string[] } = {}, timeoutMs = 120_000): Promise<CliResult> {
  return untilExit(spawnColloquy(args, options), args, timeoutMs);
}

/** The report's lines with the per-test and total times taken out, so they can be compared exactly. */
export const withoutTimes = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.replace(/ \(\d+(\.\d)? ms\)$/, '').replace(/\(\d+ steps in \d+ ms\)/, '(N steps)'))
    .filter((l) => l !== '');
