// `colloquy test`: finds the test files, loads each bot once, runs every test in this process
// (no process per test, no server) and hands each result to the reporter as it comes.
import { performance } from 'node:perf_hooks';
import { BotCache, isProblem, type BotUnderTest } from './bot-under-test.js';
import { Coverage, type BotCoverage } from './coverage.js';
import { EngineSession, type ChatSession } from './session.js';
import { StepRunner, type StepFailure } from './steps.js';
import { findTestFiles, readTestFile, type FileProblem, type TestCase } from './test-file.js';

export interface TestResult {
  file: string;
  name: string;
  line: number;
  failure: StepFailure | null;
  ms: number;
  steps: number;
}

export interface FileResult {
  path: string;
  bot: string;
  tests: TestResult[];
  /** a note for the whole file (e.g. stubs skipped against a server) */
  notes: string[];
}

export interface RunResult {
  files: FileResult[];
  /** files that could not be used (exit code 2) */
  problems: FileProblem[];
  coverage: BotCoverage[] | null;
  ms: number;
  steps: number;
}

export interface RunOptions {
  coverage?: boolean;
  /** the conversation a test talks to; default the engine in this process */
  session?: (bot: BotUnderTest, test: TestCase, coverage: Coverage) => Promise<ChatSession>;
  /** notes for a file, given its tests (server runs say which stubs they skip) */
  notesFor?: (tests: TestCase[]) => string[];
  onTest?: (result: TestResult) => void;
  onFile?: (file: FileResult | FileProblem) => void;
}

export const exitCodeOf = (run: RunResult): 0 | 1 | 2 => (run.problems.length > 0 ? 2 : run.files.some((f) => f.tests.some((t) => t.failure)) ? 1 : 0);

export async function runTestFiles(paths: string[], options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  const coverage = new Coverage();
  const bots = new BotCache();
  const { files, missing } = findTestFiles(paths);
  const problems: FileProblem[] = missing.map((p) => ({ path: p, problems: [{ at: '$', message: 'no such file or folder' }] }));
  if (files.length === 0 && missing.length === 0) problems.push({ path: paths.join(' ') || '.', problems: [{ at: '$', message: 'no *.test.yaml or *.test.json files here' }] });
  for (const p of problems) options.onFile?.(p);
  const results: FileResult[] = [];
  let steps = 0;
  for (const file of files) {
    const read = readTestFile(file);
    const bot = isProblem(read) ? read : await bots.get(read.botPath);
    if (isProblem(read) || isProblem(bot)) {
      const reported = isProblem(read) ? read : { ...(bot as FileProblem), via: file };
      problems.push(reported);
      options.onFile?.(reported);
      continue;
    }
    coverage.track(bot);
    const result: FileResult = { path: file, bot: bot.name, tests: [], notes: options.notesFor?.(read.tests) ?? [] };
    options.onFile?.(result);
    for (const test of read.tests) {
      const testStarted = performance.now();
      let failure: StepFailure | null;
      try {
        const session = options.session ? await options.session(bot, test, coverage) : new EngineSession(bot, test, coverage);
        failure = await new StepRunner(session).run(test);
      } catch (error) {
        // a server that failed to answer fails the test, not the run
        failure = { line: test.line, step: `test ${JSON.stringify(test.name)}`, expected: 'the test to run', actual: (error as Error).message, turn: [] };
      }
      const done: TestResult = { file, name: test.name, line: test.line, failure, ms: performance.now() - testStarted, steps: test.steps.length };
      steps += test.steps.length;
      result.tests.push(done);
      options.onTest?.(done);
    }
    results.push(result);
  }
  return { files: results, problems, coverage: options.coverage ? coverage.report() : null, ms: performance.now() - started, steps };
}
