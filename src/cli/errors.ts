// How the command line ends on an error: a message a person can act on, and the exit code the
// command documents (2: how it was called or a file it cannot read; 1: refused; 3: stale version).
import { ConfigError } from '../config.js';
import { AppError } from '../shared/errors.js';
import { ApiError, UsageError } from './api-client.js';

/** An error that carries its own exit code and says everything itself. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CommandFailed';
  }
}

const write = (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

/** Prints `error` and returns the exit code. */
export function reportCliError(error: unknown): number {
  if (error instanceof CommandFailed) {
    write(`colloquy: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof UsageError) {
    write(`colloquy: ${error.message}`);
    return 2;
  }
  if (error instanceof ApiError) {
    const problems = (error.body.Problems as Array<{ Path: string; Message: string }> | undefined) ?? [];
    write(`colloquy: ${error.code}: ${error.message}\n${problems.map((p) => `  ${p.Path}: ${p.Message}\n`).join('')}`);
    return 1;
  }
  // ConfigError and main.ts's StartupError (not imported here: it would load the server)
  if (error instanceof ConfigError || (error instanceof Error && error.constructor.name === 'StartupError')) {
    write(`colloquy: refusing to start: ${error.message}`);
    return 1;
  }
  if (error instanceof AppError) {
    const problems = (error.extra.Problems as Array<{ Path: string; Message: string }> | undefined) ?? [];
    write(`colloquy: ${error.code}: ${error.message}\n${problems.map((p) => `  ${p.Path}: ${p.Message}\n`).join('')}`);
    return 1;
  }
  write(`colloquy: ${(error as Error).stack ?? String(error)}`);
  return 1;
}
