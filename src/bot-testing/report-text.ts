// The human report of `colloquy test`: one line per test as it finishes, the failure's details
// right under it (file:line, the step, expected, what the bot said, the whole turn), problems
// with their paths, the coverage when asked, and a summary line.
import path from 'node:path';
import type { BotCoverage } from './coverage.js';
import type { FileResult, RunResult, TestResult } from './run.js';
import type { FileProblem } from './test-file.js';

export const shown = (file: string): string => {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
};

export class TextReporter {
  constructor(private readonly write: (line: string) => void) {}

  file(file: FileResult | FileProblem): void {
    if ('problems' in file) {
      const what = file.via ? `bot file ${shown(file.path)} (named by ${shown(file.via)})` : shown(file.path);
      this.write(`\n${what}: cannot be used`);
      for (const p of file.problems) this.write(`  ${p.at}${p.line ? ` (line ${p.line})` : ''}: ${p.message}`);
      return;
    }
    this.write(`\n${shown(file.path)} (${file.bot})`);
    for (const note of file.notes) this.write(`  note: ${note}`);
  }

  test(result: TestResult): void {
    const ms = result.ms < 10 ? result.ms.toFixed(1) : Math.round(result.ms).toString();
    if (!result.failure) {
      this.write(`  ✓ ${result.name} (${ms} ms)`);
      return;
    }
    const f = result.failure;
    this.write(`  ✗ ${result.name}`);
    this.write(`      at ${shown(result.file)}:${f.line}  ${f.step}`);
    this.write(`      expected: ${f.expected}`);
    this.write(`      got:      ${f.actual}`);
    if (f.turn.length > 0) {
      this.write(`      the bot's latest turn:`);
      for (const line of f.turn) this.write(`        ${line}`);
    }
  }

  coverage(bots: BotCoverage[]): void {
    for (const bot of bots) {
      const reached = (c: { total: number; missed: string[] }) => `${c.total - c.missed.length}/${c.total}`;
      this.write(`\ncoverage of ${bot.bot} (${shown(bot.path)}): interactions ${reached(bot.interactions)}, buttons ${reached(bot.buttons)}`);
      for (const name of bot.interactions.missed) this.write(`  not reached: interaction ${name}`);
      for (const label of bot.buttons.missed) this.write(`  not pressed: button ${label}`);
    }
  }

  summary(run: RunResult): void {
    const tests = run.files.flatMap((f) => f.tests);
    const failed = tests.filter((t) => t.failure).length;
    const parts = [`${tests.length} tests`, `${tests.length - failed} passed`, `${failed} failed`];
    if (run.problems.length > 0) parts.push(`${run.problems.length} file(s) could not be used`);
    this.write(`\n${parts.join(', ')} (${run.steps} steps in ${Math.round(run.ms)} ms)`);
  }
}
